#!/usr/bin/env bash
# check: quick, budget 60 s
# make jobs (scripts/jobs.sh): every set of bench/sets that LKP and mmtests
# can run becomes an LKP job that parses as YAML and an mmtests config that
# parses as shell, naming only programs, parameters, tests and variables
# that exist in the versions read (lkp-tests bbbc29c, mmtests 638401e: the
# lists below), each with both sides of its set, sides that LKP's result
# paths (the first 31 characters of a value) keep apart. Each LKP job runs
# its workload once per lkp run (iterations 1x or none), removes the
# profilers among LKP's default monitors (perf-sched-:, perf-c2c-:,
# perf-profile-:, so that none runs over a measured run), runs the loops
# sized for hardware (jobs.sh: 7.2e6 messages per hackbench receiver,
# MSG_LOOPS 140000, PIPE_LOOPS 5200000) or 10 s of tbench and schbench, and names in
# its sp- lines its sides and the fields run-ab.sh compares: the testcase's
# own first, each a name its parse script prints. The sets left out
# are named with their reason. The drivers are tested on their own:
# jobs-lkp.sh (lkp/run-ab.sh), jobs-mmtests.sh (mmtests/run-ab.sh).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
# What exists, as read in lkp-tests bbbc29c (programs/*/run, setup and
# daemon headers) and mmtests 638401e (drivers/, configs/, shellpacks/).
lkp_params='sched_feature:feature
hackbench:runtime,nr_threads,nr_threads_by_instance,fds,mode,ipc,iterations,loops,datasize
tbench:runtime,nr_threads,iterations
tbench-server:
schbench:message_threads,worker_threads,worker_threads_by_instance,runtime,iterations,intervaltime_s
stream:nr_threads,array_size,omp,loop,iterations
perf-bench-sched-pipe:loops,mode
perf-bench-sched-messaging:loops,groups,ipc,mode
perf-sched:lite_mode,delay,duration,runtime
perf-profile:events,period,freq,delay,duration,callgraph,children,inline,cpu
perf-c2c:event,mode,ldlat,delay,duration'
lkp_top='suite testcase category cluster nr_threads iterations runtime'
# What each testcase's parse script prints (programs/*/parse), to stats.json
# as TESTCASE.NAME; and perf-stat's per-second rates (ps.EVENT).
lkp_fields='hackbench:throughput,throughput_best,throughput_avg,throughput_worst
tbench:throughput_MB/s,max_latency
schbench:wakeup_latency_50%_us,wakeup_latency_90%_us,wakeup_latency_99%_us,wakeup_latency_99.9%_us,request_latency_50%_us,request_latency_90%_us,request_latency_99%_us,request_latency_99.9%_us
perf-bench-sched-pipe:ops_per_sec
perf-bench-sched-messaging:total_time_sec
perf-stat:ps.cpu-migrations,ps.context-switches'
mm_tests='hackbench-process-pipes hackbench-process-sockets hackbench-thread-pipes hackbench-thread-sockets tbench schbench stream perfpipe'
mm_vars='MMTESTS MMTEST_ITERATIONS HACKBENCH_ITERATIONS HACKBENCH_MIN_GROUPS HACKBENCH_MAX_GROUPS HACKBENCH_LOOPS TBENCH_DURATION TBENCH_MIN_CLIENTS TBENCH_MAX_CLIENTS SCHBENCH_RUNTIME SCHBENCH_INTERVAL SCHBENCH_MESSAGE_THREADS SCHBENCH_MIN_WORKER_THREADS SCHBENCH_MAX_WORKER_THREADS STREAM_SIZE STREAM_THREADS STREAM_METHOD STREAM_ITERATIONS PERFPIPE_LOOPS PERFPIPE_ITERATIONS RUN_MONITOR MONITORS_ALWAYS MONITORS_GZIP MONITORS_WITH_LATENCY MONITOR_PERF_EVENTS MONITOR_UPDATE_FREQUENCY'

mapfile -t all < <(grep -v '^[#@]' "$TOP/bench/sets" | grep . | cut -d'|' -f1 | tr -d ' \t' | sed 's/N$/2/')
JOB_SETS="${all[*]}" JOBS_OUT=$t/jobs "$TOP/scripts/jobs.sh" 2>"$t/log" || fail "make jobs failed: $(cat "$t/log")"
n=$(ls "$t"/jobs/lkp/*.yaml | wc -l)
[ "$n" -ge 10 ] || fail "only $n LKP jobs from ${#all[@]} sets: $(ls "$t/jobs/lkp")"
# The sets left out: the "Not written:" list of the README.
sed -n '/^Not written:$/,/^$/p' "$t/jobs/README" >"$t/left-out"
for s in "${all[@]}"; do
	[ -f "$t/jobs/lkp/$s.yaml" ] || grep -q "^- $s: " "$t/left-out" ||
		fail "set $s neither written nor named as left out: $(cat "$t/jobs/README")"
done
python3 - "$t/jobs/lkp" "$lkp_params" "$lkp_top" "$TOP/bench/sets" "$lkp_fields" <<'PY' || fail "an LKP job is wrong (above)"
import os, re, sys, yaml
d, params, top, sets = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4]
known = {l.split(':')[0]: set(filter(None, l.split(':')[1].split(','))) for l in params.splitlines()}
fields = {l.split(':')[0]: set(l.split(':')[1].split(',')) for l in sys.argv[5].splitlines()}
switches = set()
for l in open(sets):
    if not l.startswith(('#', '@')) and '|' in l:
        f = l.split('|')
        switches |= set(f[1].strip().split(',')) | ({f[2].strip()} - {'-'})
bad = 0
for name in sorted(n for n in os.listdir(d) if n.endswith('.yaml')):
    job = yaml.safe_load(open(os.path.join(d, name)))
    def err(m):
        global bad
        print(f"{name}: {m}"); bad = 1
    for k, v in job.items():
        if k.startswith('if role '):
            for p in (v or {}):
                if p not in known: err(f"unknown program {p}")
        elif k in known:
            for p in (v or {}):
                if p not in known[k]: err(f"{k} has no parameter {p}")
        elif k.endswith('-') and k[:-1] in known and v is None:
            pass  # removes a key of the defaults (lkp-tests lib/hash.rb)
        elif k not in top:
            err(f"unknown key {k}")
    sides = job.get('sched_feature', {}).get('feature')
    if not (isinstance(sides, list) and len(sides) == 2):
        err(f"sched_feature.feature is not the two sides: {sides}"); continue
    for s in sides:
        for w in s.split():
            if w.removeprefix('NO_') not in switches: err(f"{w} is not a switch of bench/sets")
    a, b = (re.sub(r'[^-a-zA-Z0-9+=:.%]', '_', s[:31]) for s in sides)
    if a == b: err(f"the sides share LKP's result path: {a}")
    if not any(w.startswith('NO_') for w in sides[1].split()): err("side B turns nothing off")
    # One run of the workload per lkp run: LKP folds iterations into one
    # number per result root (and perf-bench-sched-* run once anyway).
    if job.get('iterations') not in (None, '1x'): err(f"iterations {job.get('iterations')}, not 1x")
    for m in ('perf-sched', 'perf-profile', 'perf-c2c'):
        if m in job or (m + '-') not in job: err(f"{m} is not removed ({m}-:): it would record over the measured runs")
    # Long enough on hardware for perf-stat's one-second intervals.
    tc = job['testcase']
    loops = {'hackbench': -(-7200000 // int((job.get('hackbench') or {}).get('fds', 20))),
             'perf-bench-sched-messaging': 140000, 'perf-bench-sched-pipe': 5200000}
    if tc in loops and int(job[tc]['loops']) != loops[tc]: err(f"{tc} loops {job[tc]['loops']}, not {loops[tc]}")
    secs = {'tbench': job.get('runtime'), 'schbench': (job.get('schbench') or {}).get('runtime')}.get(tc)
    if tc in ('tbench', 'schbench') and int(str(secs).rstrip('s')) < 10: err(f"{tc} runs {secs}, under 10 s")
    meta = dict(re.findall(r'^# sp-([a-z-]+): (.*)$', open(os.path.join(d, name)).read(), re.M))
    if (meta.get('side-a'), meta.get('side-b')) != tuple(sides): err(f"sp-side-a/b {meta} are not the sides")
    fl = meta.get('fields', '').split()
    if not fl or not fl[0].startswith(job['testcase'] + '.'): err(f"first sp-field {fl[:1]} is not of {job['testcase']}")
    for f in fl:
        prog, _, stat = f.partition('.')
        if stat not in fields.get(prog, ()): err(f"{prog}'s parse prints no {stat}")
    for h in meta.get('higher', '-').split(','):
        if h != '-' and h not in fl: err(f"sp-higher {h} is not a field")
sys.exit(bad)
PY
for c in "$t"/jobs/mmtests/config-*; do
	bash -n "$c" || fail "$c does not parse"
	for v in $(sed -n 's/^export \([A-Z_]*\)=.*/\1/p' "$c"); do
		[[ " $mm_vars SP_SET SP_SIDE_A SP_SIDE_B " == *" $v "* ]] || fail "$(basename "$c"): mmtests has no $v"
	done
	for m in $(bash -c ". '$c'; echo \$MMTESTS"); do
		[[ " $mm_tests " == *" $m "* ]] || fail "$(basename "$c"): mmtests has no test $m"
	done
	bash -c ". '$c'; [ -n \"\$SP_SIDE_A\" ] && [ -n \"\$SP_SIDE_B\" ] && [ \"\$SP_SIDE_A\" != \"\$SP_SIDE_B\" ]" ||
		fail "$(basename "$c") lacks its two sides"
done
echo "# $n LKP jobs and $(ls "$t"/jobs/mmtests/config-* | wc -l) mmtests configs from ${#all[@]} sets; left out: $(grep -c '^- ' "$t/left-out")"
expect_error 1 "REPS=0: want a positive whole number" -- env REPS=0 JOBS_OUT="$t/bad" "$TOP/scripts/jobs.sh"
[ ! -e "$t/bad" ] || fail "a refused make jobs wrote $t/bad"
