#!/usr/bin/env bash
# `make jobs`: the A/B sets of bench/sets as jobs of the tools people run on
# their own machines, written to out/jobs/ (replaced only when complete):
#   lkp/SET.yaml      an LKP job (lkp-tests): the sched_feature setup program
#                     with the two sides as a matrix, so that `lkp split-job`
#                     gives one job per side, and the set's workload as LKP
#                     names it (hackbench, tbench, perf-bench-sched-pipe,
#                     perf-bench-sched-messaging, schbench), run once per
#                     lkp run (LKP folds a job's iterations into one number);
#                     "# sp-" lines name the sides, the fields to compare
#                     (the testcase's, from its parse script, then
#                     perf-stat's migrations and context switches) and REPS
#   lkp/run-ab.sh, lib.sh  runs lkp run of each side's split job in turn and
#                     compares the fields with build/bin/stats (bench/lkp-ab.sh)
#   mmtests/config-SET  an mmtests config of the same workload, with the two
#                     sides in SP_SIDE_A and SP_SIDE_B, monitors on
#   mmtests/run-ab.sh, lib.sh  runs run-mmtests.sh --build-only, unattended
#                     (AUTO_PACKAGE_INSTALL=yes), then A B B A with the
#                     features set (run names SET-A1 SET-B1 SET-B2 SET-A2),
#                     then compare-kernels.sh (bench/mmtests-ab.sh)
#   README            how to run each, the sets left out and why, and the
#                     sets whose workload differs under mmtests
#
#   [JOB_SETS='both-g4 ...'] [REPS=12] [LLC_CPUS=16] [JOBS_OUT=out/jobs] jobs.sh
#
# The workload comes from series-ab.sh -D, so its knobs are the bench's
# (HB_LOOPS, TBENCH_SECS, SCHBENCH_SECS, PIPE_LOOPS, MSG_LOOPS), with loop
# counts for hardware by default (below). REPS runs per
# side; LLC_CPUS, the CPUs of one LLC of the target (16 on EPYC Milan), sizes
# schbench's workers as sp-schbench sizes them from sysfs. The names used are
# those of lkp-tests bbbc29c and mmtests 638401e (tests/harness/jobs.sh
# lists them).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# The sets the changelogs and the cover letter cite, and the reviewers'
# latency load.
read -ra sets <<<"${JOB_SETS:-both-g1 both-g4 fit-g4 tbench-64 boost schbench-2 stream-10}"
reps=${REPS:-$AB_REPS} llc=${LLC_CPUS:-16}
need_reps "$reps"
[[ $llc =~ ^[1-9][0-9]*$ ]] || die "LLC_CPUS=$llc: want the CPUs of one LLC of the target machine"
# Loops for hardware, so that a run lasts at least ~10 s there: LKP's
# perf-stat gives per-second rates over whole one-second intervals of the
# lkp run (it drops the last, partial one) divided by the whole time, so
# a run of well under a second measures LKP's start-up, not the workload
# (make bench's loops are sized for the emulator: 500 hackbench loops take
# tens of milliseconds on hardware). From the hardware numbers of the
# original threads (shared/seeds): hackbench -g 32 -f 20 --threads --pipe
# -l 480000 took 40 s on 2 x EPYC 9654 (000, v2 1/2): 20 x 480000
# messages per receiver, 2.4e5 a second with 3.3 tasks a CPU; perf bench
# sched messaging -t -g 1 -l 2000 took 0.4377 s on a 160-CPU Ampere Altra
# (001): 4570 loops a second; perf bench sched pipe's documented run, 1e6
# loops in 5.855 s (tools/perf/Documentation/perf-bench.txt): 1.71e5 a
# second. Each rate x 3 (a task alone on its CPU, a faster machine), x 10 s,
# rounded up: 7.2e6 messages per hackbench receiver (-f F: F a loop, so
# 720000 loops at -f 10, 900000 at -f 8), messaging 140000, pipe 5200000
# loops; 10 s or more at 3 times those rates, 30 s at them. Given
# HB_LOOPS, the hackbench sets keep their own -l (HB_LOOPS where the set
# takes it). bench/lkp-ab.sh checks each run's length (LKP_MIN_SECS) all
# the same.
HB_RECV_MSGS=7200000 hb_given=${HB_LOOPS:-}
export MSG_LOOPS=${MSG_LOOPS:-140000} PIPE_LOOPS=${PIPE_LOOPS:-5200000}
defs=$("$TOP/bench/series-ab.sh" -D "${sets[@]}") || exit

out=${JOBS_OUT:-$TOP/out/jobs}
rm -rf "$out.partial"
mkdir -p "$out.partial/lkp" "$out.partial/mmtests"
cleanup_on_exit 'rm -rf "$out.partial"'
skipped=() mmdiff=()

# words FEATURES ALSO PREFIX: the features file words of one side: each
# switch of the set with PREFIX ("" or NO_), and the also-on switches on.
words() {
	local f w=()
	for f in ${1//,/ }; do w+=("$3$f"); done
	[ "$2" = - ] || for f in ${2//,/ }; do w+=("$f"); done
	echo "${w[*]}"
}
# opt ARGS FLAG: the value after FLAG in ARGS.
opt() {
	local a=($1) i
	for ((i = 0; i < ${#a[@]} - 1; i++)); do
		[ "${a[i]}" != "$2" ] || { echo "${a[i + 1]}"; return; }
	done
}

# lkp_head TESTCASE: the keys every LKP job of ours starts with.
lkp_head() {
	printf 'suite: %s\ntestcase: %s\ncategory: benchmark\n' "$1" "$1"
}
# lkp_monitors: no profiler over a measured run. The default monitors of
# LKP's category benchmark (include/category/benchmark) include three that
# record across all CPUs (perf-sched, perf-c2c, perf-profile), whose
# threads would take the idle CPUs the switches decide on; a key ending in
# "-" removes a key of the defaults (lib/hash.rb, revise_hash), as
# jobs/pmbench-dcpmm.yaml removes perf-profile. perf-stat (counters only)
# stays: its migrations and context switches are compared.
LKP_PROFILERS='perf-sched perf-c2c perf-profile'
lkp_monitors() {
	local m
	for m in $LKP_PROFILERS; do printf '%s-:\n' "$m"; done
}
# mm_monitors: mmtests' monitors as configs/config-scheduler-hackbench has
# them, every second (these runs are short), turbostat only where installed
# (its monitor execs it, and dies without it).
mm_monitors() {
	printf '%s\n' \
		"# Monitors as configs/config-scheduler-hackbench, every second: perf stat's" \
		"# cpu-migrations and context-switches, mpstat, turbostat where installed." \
		'export RUN_MONITOR=yes' \
		'export MONITORS_ALWAYS=' \
		'export MONITORS_GZIP="proc-vmstat perf-time-stat mpstat"' \
		'if command -v turbostat >/dev/null 2>&1; then' \
		'	export MONITORS_GZIP="$MONITORS_GZIP turbostat"' \
		'fi' \
		'export MONITORS_WITH_LATENCY="vmstat"' \
		'export MONITOR_PERF_EVENTS=cpu-migrations,context-switches' \
		'export MONITOR_UPDATE_FREQUENCY=1'
}
# mm_hackbench MODE-IPC GROUPS LOOPS: mmtests' hackbench (perf bench sched
# messaging) at one group count.
mm_hackbench() {
	printf 'export MMTESTS="hackbench-%s"\nexport HACKBENCH_ITERATIONS=%s\n' "$1" "$reps"
	printf 'export HACKBENCH_MIN_GROUPS=%s\nexport HACKBENCH_MAX_GROUPS=%s\nexport HACKBENCH_LOOPS=%s\n' "$2" "$2" "$3"
}

while IFS='|' read -r set feat also _ title work; do
	set=$(echo $set) feat=$(echo $feat) also=$(echo $also) title=$(echo $title) work=$(echo $work)
	a=$(words "$feat" "$also" "") b=$(words "$feat" "$also" NO_)
	lkp= mm= field= higher=
	case $work in
	"hackbench "*)
		mode=process ipc=socket
		[[ " $work " != *" --threads "* ]] || mode=threads
		[[ " $work " != *" --pipe "* ]] || ipc=pipe
		g=$(opt "$work" -g) f=$(opt "$work" -f) s=$(opt "$work" -s) l=$(opt "$work" -l)
		# mmtests' groups have 20 receivers of 20 senders: as many
		# messages per receiver at 20 a loop.
		lm=$l
		[ -n "$hb_given" ] || l=$(((HB_RECV_MSGS + ${f:-20} - 1) / ${f:-20})) lm=$(((HB_RECV_MSGS + 19) / 20))
		lkp="$(lkp_head hackbench)
nr_threads: $g
iterations: 1x
hackbench:
  mode: $mode
  ipc: $ipc
  fds: $f
  datasize: ${s:-100}
  loops: $l"
		field=hackbench.throughput higher=$field
		[ "$mode" = threads ] && mode=thread
		[ "$ipc" = pipe ] && ipc=pipes || ipc=sockets
		mm="# mmtests' hackbench is perf bench sched messaging: $g groups of 20 senders
# and 20 receivers where the set's hackbench has $f of each (loops: as many
# messages per receiver).
$(mm_hackbench "$mode-$ipc" "$g" "$lm")"
		mmdiff+=("$set: mmtests' hackbench is perf bench sched messaging, 20 senders and 20 receivers a group: $g groups are $((40 * g)) tasks there, $((2 * f * g)) here (hackbench -f $f)") ;;
	*/tbench.sh\ *)
		read -r _ secs n <<<"$work"
		lkp="$(lkp_head tbench)
nr_threads: $n
runtime: $secs
iterations: 1x
cluster: cs-localhost
if role server:
  tbench-server:
if role client:
  tbench:"
		field=tbench.throughput_MB/s higher=$field
		mm="export MMTESTS=\"tbench\"
export MMTEST_ITERATIONS=$reps
export TBENCH_DURATION=$secs
export TBENCH_MIN_CLIENTS=$n
export TBENCH_MAX_CLIENTS=$n" ;;
	"perf bench sched pipe "*)
		l=$(opt "$work" -l)
		lkp="$(lkp_head perf-bench-sched-pipe)
perf-bench-sched-pipe:
  loops: $l
  mode: process"
		field=perf-bench-sched-pipe.ops_per_sec higher=$field
		mm="export MMTESTS=\"perfpipe\"
export PERFPIPE_ITERATIONS=$reps
export PERFPIPE_LOOPS=$l" ;;
	"perf bench sched messaging "*)
		g=$(opt "$work" -g) l=$(opt "$work" -l)
		lkp="$(lkp_head perf-bench-sched-messaging)
perf-bench-sched-messaging:
  loops: $l
  groups: $g
  ipc: socket
  mode: thread"
		field=perf-bench-sched-messaging.total_time_sec
		mm=$(mm_hackbench thread-sockets "$g" "$l") ;;
	*/sp-schbench\ *)
		# -t: the set's own worker count (schbench-wN); else an LLC's CPUs.
		m=$(opt "$work" -m) secs=$(opt "$work" -r) w=$(opt "$work" -t)
		w=${w:-$llc}
		lkp="$(lkp_head schbench)
iterations: 1x
schbench:
  message_threads: $m
  worker_threads: $w
  runtime: ${secs}s"
		field=schbench.wakeup_latency_99%_us
		mm="export MMTESTS=\"schbench\"
export MMTEST_ITERATIONS=$reps
export SCHBENCH_RUNTIME=$secs
export SCHBENCH_INTERVAL=$secs
export SCHBENCH_MESSAGE_THREADS=$m
export SCHBENCH_MIN_WORKER_THREADS=$w
export SCHBENCH_MAX_WORKER_THREADS=$w"
		mmdiff+=("$set: the real schbench in place of sp-schbench (under LKP too): its own percentiles, no requests per second or wake_local_pct") ;;
	*/latency.sh\ *) skipped+=("$set: cyclictest beside hackbench has no LKP or mmtests form; run it with make bench HOST=1") ;;
	*"taskset -c LLC0 "*) skipped+=("$set: pinned to the LLC of CPU 0; run it with make bench HOST=1") ;;
	*"taskset -c MASK "*) skipped+=("$set: STREAM pinned to one CPU in half the LLCs of each node, which neither tool's stream can pin; run it with make bench HOST=1") ;;
	*) skipped+=("$set: no mapping for '$work'") ;;
	esac
	[ -n "$lkp" ] || continue
	{
		echo "# sched-placement set $set: $title"
		echo "# Written by make jobs from bench/sets; names as in lkp-tests bbbc29c. Run with"
		echo "# run-ab.sh, which reads the sp- lines."
		echo "# sp-set: $set"
		echo "# sp-side-a: $a"
		echo "# sp-side-b: $b"
		echo "# sp-fields: $field perf-stat.ps.cpu-migrations perf-stat.ps.context-switches"
		echo "# sp-higher: ${higher:--}"
		echo "# sp-reps: $reps"
		echo "sched_feature:"
		echo "  feature:"
		echo "    - \"$a\""
		echo "    - \"$b\""
		echo "$lkp"
		lkp_monitors
	} >"$out.partial/lkp/$set.yaml"
	{
		echo "# sched-placement set $set: $title"
		echo "# Written by make jobs from bench/sets; run with run-ab.sh (names as in mmtests 638401e)."
		echo "export SP_SET=\"$set\""
		echo "export SP_SIDE_A=\"$a\""
		echo "export SP_SIDE_B=\"$b\""
		echo "$mm"
		mm_monitors
	} >"$out.partial/mmtests/config-$set"
done <<<"$defs"
cp "$TOP/bench/lkp-ab.sh" "$out.partial/lkp/run-ab.sh"
cp "$TOP/bench/lib.sh" "$out.partial/lkp/lib.sh"
cp "$TOP/bench/mmtests-ab.sh" "$out.partial/mmtests/run-ab.sh"
cp "$TOP/bench/lib.sh" "$out.partial/mmtests/lib.sh"
{
	cat <<EOF
# Jobs of the sched-placement A/B sets, for your own machine

Written by make jobs from bench/sets ($(git -C "$TOP" log -1 --format=%h 2>/dev/null || echo unknown)), $reps runs per
side, schbench-N with $llc workers per message thread (schbench-wN with N). Boot a kernel of the series first (make deb), as
root with debugfs mounted.

LKP (lkp-tests, after make install in its checkout): each lkp/SET.yaml gives two jobs, one per side of
the set (sched_feature's matrix), each running the set's workload once per lkp run. As root, from the
lkp-tests checkout, with JOBS the directory of this README and SET a set, in this order:

    JOBS=path/to/out/jobs SET=both-g4
    lkp install
    mkdir -p split/\$SET
    lkp split-job -o split/\$SET \$JOBS/lkp/\$SET.yaml
    lkp install split/\$SET/*.yaml
    \$JOBS/lkp/run-ab.sh \$JOBS/lkp/\$SET.yaml split/\$SET

The plain lkp install writes hosts/\$HOSTNAME, without which split-job writes nothing; split-job writes
only into a directory that exists; it exits 0 either way (run-ab.sh checks for the two jobs). The second
install gets the workload and the monitors' programs. run-ab.sh runs lkp run REPS times per side (default
$reps), A B B A A B ..., reads each run's stats.json, and prints the table of build/bin/stats (make tools in
the sched-placement checkout, or STATS=path/to/stats): mean, CV, change and Welch's p of the set's field
(hackbench.throughput, tbench.throughput_MB/s, schbench.wakeup_latency_99%_us,
perf-bench-sched-pipe.ops_per_sec or perf-bench-sched-messaging.total_time_sec) and of perf-stat's
cpu-migrations and context-switches per second (perf-stat does not run in a VM). It keeps the table, the
numbers and the result roots in lkp-ab-SET/. LKP keeps 100 runs of a job (result roots .../0 to .../99).

sched_feature's setup writes the side's words one at a time (the kernel refuses two in one write), has
no teardown, and does nothing when debugfs is not mounted: after a plain lkp run the side's switches
stay written. run-ab.sh checks the words after each run, and writes back the features file it found at
the end, also after Ctrl-C.

No profiler runs over a measured run: the jobs remove the profilers among LKP's default monitors
(perf-sched-:, perf-c2c-:, perf-profile-:), whose threads on every CPU would take the idle CPUs the
switches decide on; perf-stat (counters) stays. For a profile, run a side's split job once more, apart
from run-ab.sh and not compared, with a profiler put back, e.g. lkp run -s 'perf-profile: {delay: 0}'
split/\$SET/JOB.yaml. The loops are sized for hardware ($HB_RECV_MSGS messages per hackbench receiver,
MSG_LOOPS=$MSG_LOOPS, PIPE_LOOPS=$PIPE_LOOPS by default; scripts/jobs.sh says how), so that a run lasts 10 s or more:
perf-stat's per-second rates count whole one-second intervals of the lkp run, the last, partial one
dropped, over its whole time, so on a run of under a second they measure LKP's start-up. run-ab.sh
stops at the first run whose workload took under LKP_MIN_SECS (default 10; from TESTCASE.time.elapsed_time
in stats.json, GNU time's, which lkp install installs) and names the loops to give make jobs. When a run
fails, run-ab.sh names its result root (under /lkp/result/TESTCASE/, where lkp run writes, the workload's
output in its file TESTCASE) and shows the end of lkp run's output. lkp compare -d feature cannot pair these sides: result
paths keep the first 31 characters of a value, spaces made _, and compare looks for the whole value in
them; it works only for sides of one word of at most 31 characters.

mmtests: each mmtests/config-SET with run-ab.sh. As root, from the mmtests checkout:

    JOBS=path/to/out/jobs SET=both-g4
    \$JOBS/mmtests/run-ab.sh \$JOBS/mmtests/config-\$SET

It first runs ./run-mmtests.sh --build-only (run name SET-build), which installs mmtests' packages and
builds the test before any feature is written; every run-mmtests.sh of run-ab.sh has
AUTO_PACKAGE_INSTALL=yes, so that mmtests' install-depends runs apt-get -y instead of asking on stdin,
which run-ab.sh's background runs cannot answer. Then it runs ./run-mmtests.sh --run-monitor four times,
A B B A, so that a drift over the session hits both sides alike (ROUNDS=N: N such rounds), under the run names SET-A1 SET-B1 SET-B2 SET-A2, each with its
side's features written first and $reps iterations; keeps the features file in work/log/NAME/sched-features;
restores it; and runs compare-kernels.sh --auto-detect (significance marks) with SET-B1 as the baseline:
SET-B2 against it is the run-to-run noise. Monitors as config-scheduler-hackbench has them, every second:
perf-time-stat (cpu-migrations, context-switches), mpstat, turbostat where installed, proc-vmstat, vmstat.
Ctrl-C stops run-mmtests.sh's process group (SIGTERM; SIGKILL after MM_STOP_SECS, default 30), waits for
it and restores the features file; compare-kernels.sh does not run then. A run name work/log already has
is refused (mmtests would replace it). compare-kernels.sh needs Perl's File::Which and YAML::PP, and R for
its significance marks (without R it says "R: not found" and marks nothing significant): on Debian and
Ubuntu, sudo make deps HOST=1 in the sched-placement checkout installs libfile-which-perl, libyaml-pp-perl
and r-base-core.
EOF
	if [ ${#mmdiff[@]} -gt 0 ]; then
		echo
		echo "Not the same workload under mmtests as under make bench:"
		printf -- '- %s\n' "${mmdiff[@]}"
	fi
	if [ ${#skipped[@]} -gt 0 ]; then
		echo
		echo "Not written:"
		printf -- '- %s\n' "${skipped[@]}"
	fi
} >"$out.partial/README"
rm -rf "$out"
mv "$out.partial" "$out"
note "jobs in ${out#"$TOP"/}/: $(cd "$out" && ls lkp/*.yaml | wc -l) LKP jobs, $(cd "$out" && ls mmtests/config-* | wc -l) mmtests configs; $(( ${#skipped[@]} )) sets left out (README)"
