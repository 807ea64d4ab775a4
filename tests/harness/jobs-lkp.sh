#!/usr/bin/env bash
# check: quick, budget 60 s
# make jobs' LKP path (out/jobs/lkp: SET.yaml, run-ab.sh from bench/lkp-ab.sh)
# against a fake lkp and debugfs. The fake does what lkp-tests bbbc29c
# documents, emulated because its Ruby does not run here: install without
# a job writes hosts/$HOSTNAME; split-job exits 0 having written nothing when
# -o names no directory or the hosts file is missing, else writes one job per
# value of sched_feature's feature, unquoted as Ruby's YAML.dump writes it;
# run (run-local) writes the job's feature words into the features file one
# at a time as programs/sched_feature/setup does, takes a new result root
# under LKP_RESULT/TESTCASE/ (here the next of fixture roots: stats.json in
# LKP's pretty JSON, with GNU time's TESTCASE.time.elapsed_time, and
# matrix.json, that this test writes), writes job.sh and the workload's
# output (file TESTCASE) there, and at its end links -o to it.
# Checked: the commands of out/jobs/README's LKP block, which docs/hardware.md
# ("On hardware") repeats, run in order as written (both-g4, REPS=2); the runs go A B B A, each with its side's
# words in the features file; run-ab.sh's table is build/bin/stats's on the
# fixtures' numbers, the field read exactly (not hackbench.throughput_avg
# beside it), a perf-stat field that one run lacks left out and named; the
# features file is restored after the end and after a SIGINT in the middle
# of a run, which stops that lkp run and its child, runs nothing more and
# leaves no output directory; and run-ab.sh refuses, with nothing run, a
# split directory without the two jobs, a job not of make jobs, REPS=1, no
# stats tool and a kernel without the switches, and stops with the features
# restored when an lkp run makes no result root, fails or makes no link
# (naming the run's result root under LKP_RESULT and its output file), when
# a run's workload lasted under LKP_MIN_SECS (naming the loops for make
# jobs) and when its length is not in stats.json.
. "$(dirname "$0")/../lib.sh"
S=$BUILD/bin/stats
[ -x "$S" ] || fail "no $S; run 'make tools'"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
JOB_SETS=both-g4 REPS=2 JOBS_OUT=$t/jobs "$TOP/scripts/jobs.sh" 2>"$t/log" || fail "make jobs failed: $(cat "$t/log")"
J=$t/jobs
[ -x "$J/lkp/run-ab.sh" ] && [ -f "$J/lkp/lib.sh" ] || fail "make jobs wrote no lkp/run-ab.sh and lib.sh: $(ls "$J/lkp")"

# The fake lkp-tests checkout, lkp and debugfs.
src=$t/lkp-tests dbg=$t/dbg res=$t/lkpresult/hackbench
mkdir -p "$src/hosts" "$t/bin" "$dbg/sched" "$res"
features="UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV SIS_UTIL"
echo "$features" >"$dbg/sched/features"
cat >"$t/bin/lkp" <<'LKP'
#!/usr/bin/env bash
# The fake lkp of tests/harness/jobs-lkp.sh; CALLS logs each command.
set -u
echo "$*" >>"$CALLS"
host=${HOSTNAME:-$(hostname)}
cmd=$1
shift
case $cmd in
install)
	for f; do [ -e "$f" ] || { echo "$f: not found" >&2; exit 1; }; done
	[ $# -gt 0 ] || touch "$LKP_SRC/hosts/$host" ;;
split-job)
	out=.
	if [ "$1" = -o ]; then
		[ -d "$2" ] || { echo "$2: no such directory" >&2; exit 0; }
		out=$2
		shift 2
	fi
	[ -e "$LKP_SRC/hosts/$host" ] || { echo "hosts/$host doesn't exist, please rerun \"lkp install\""; exit 0; }
	python3 - "$out" "$@" <<'PY'
import os, re, sys, yaml
out = sys.argv[1]
for src in sys.argv[2:]:
    job = yaml.safe_load(open(src))
    for v in job['sched_feature']['feature']:
        j = dict(job, sched_feature={'feature': v}, testbox=os.environ.get('HOSTNAME', 'box'))
        params = '-'.join(str(x)[:31] for x in [v, j.get('nr_threads', ''), j.get('iterations', '')] if x != '')
        name = f"{out}/{os.path.basename(src)[:-5]}-{re.sub(r'[^-a-zA-Z0-9+=:.%]', '_', params)}.yaml"
        open(name, 'w').write(yaml.safe_dump(j, default_flow_style=False))
        print(f"{src} => {name}")
PY
	;;
run)
	[ "$1" = -o ] && link=$2 && shift 2
	words=$(sed -n 's/^ *feature: *//p' "$1")
	f=$SP_DEBUGFS/sched/features
	if [ -f "$f" ]; then
		for w in $words; do
			awk -v n="${w#NO_}" -v f="$w" '{ for (i = 1; i <= NF; i++) if ($i == n || $i == "NO_" n) $i = f; print }' \
				"$f" >"$f.tmp" && mv "$f.tmp" "$f"
		done
	fi
	echo "ran ${words// /+} with $(cat "$f")" >>"$CALLS"
	n=$(grep -c '^ran ' "$CALLS")
	if [ "$n" = "${HANG:-}" ]; then
		trap 'echo TERM >"$FAKE/hang-signal"; exit 143' TERM
		sleep 300 &
		echo $! >"$FAKE/hang-child"
		wait
		exit 0
	fi
	[ -z "${NOROOT:-}" ] || exit 0
	for r in "$LKP_RESULT/hackbench/${words// /_}"/*; do
		[ -e "$r/job.sh" ] && continue
		echo "# job of $words" >"$r/job.sh"
		echo "Time: 12.5" >"$r/hackbench"
		[ -z "${FAILRUN:-}" ] || exit 3
		[ -n "${NOLINK:-}" ] || ln -sfn "$r" "$link"
		exit 0
	done
	echo "cannot create more result_roots" >&2 ;;
*) echo "fake lkp: no command $cmd" >&2; exit 1 ;;
esac
LKP
chmod +x "$t/bin/lkp"
# fixtures SIDE_A_WORDS SIDE_B_WORDS: two result roots per side, numbers
# from $t/numbers ("SIDE VALUE PERF_MIGRATIONS PERF_CTXSW" a root; "-"
# leaves a perf-stat field out), in LKP's layout .../N/stats.json and its
# matrix.json, the workload's length ELAPSED seconds (default 12.5; "-":
# none); the fixture roots are taken again from scratch.
fixtures() {
	rm -rf "$res"
	python3 - "$res" "$1" "$2" "$t/numbers" <<'PY'
import json, os, sys
res, a, b, numbers = sys.argv[1:]
seen = {}
for line in open(numbers):
    side, tp, mig, cs = line.split()
    d = f"{res}/{(a if side == 'A' else b).replace(' ', '_')}/{seen.setdefault(side, 0)}"
    seen[side] += 1
    os.makedirs(d)
    stats = {'hackbench.throughput_avg': 1.0, 'hackbench.throughput': float(tp)}
    if os.environ.get('ELAPSED', '12.5') != '-': stats['hackbench.time.elapsed_time'] = float(os.environ.get('ELAPSED', '12.5'))
    if mig != '-': stats['perf-stat.ps.cpu-migrations'] = float(mig)
    if cs != '-': stats['perf-stat.ps.context-switches'] = float(cs)
    json.dump(stats, open(f"{d}/stats.json", 'w'), indent=2)
    json.dump({k: [v] for k, v in stats.items()}, open(f"{d}/matrix.json", 'w'), indent=2)
PY
}
A="UTIL_FITS_CAPACITY SELECT_BIAS_PREV" B="NO_UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV"
printf '%s\n' "A 1000.5 300 5000" "A 1100.25 320 5100" "B 900 400 5300" "B 950.75 410 -" >"$t/numbers"
fixtures "$A" "$B"
export CALLS=$t/calls FAKE=$t LKP_SRC=$src SP_DEBUGFS=$dbg STATS=$S PATH=$t/bin:$PATH HOSTNAME=box LKP_RESULT=$t/lkpresult

# The README's LKP commands, in order, as written.
cmds=$(awk '/^LKP/ { f = 1 } f && /^mmtests/ { exit } f && sub(/^    /, "")' "$J/README")
[ -n "$cmds" ] || fail "no LKP commands in $J/README"
grep -q '^JOBS=' <<<"$cmds" || fail "the README's LKP block does not set JOBS first: $cmds"
# docs/hardware.md ("On hardware") gives the same commands, comments aside.
top=$(awk '/^- \*\*LKP\*\*/ { f = 1 } f && /^  ```/ { n++; next } f && n == 1' "$TOP/docs/hardware.md" | sed 's/^  //; s/ *#.*//')
[ "$top" = "$(sed 's/ *#.*//' <<<"$cmds")" ] ||
	fail "docs/hardware.md's LKP commands are not out/jobs/README's: $(diff <(echo "$top") <(echo "$cmds"))"
cmds=$(grep -v '^JOBS=' <<<"$cmds")
(cd "$src" && JOBS=$J SET=both-g4 bash -euo pipefail -c "$cmds") >"$t/out" 2>"$t/err" ||
	fail "the README's LKP commands failed: $(cat "$t/err")"
echo "# README's LKP block ran: $(tr '\n' ';' <<<"$cmds")"
[ "$(grep -c '^ran ' "$CALLS")" = 4 ] || fail "want 4 lkp runs (REPS=2): $(cat "$CALLS")"
order=$(sed -n 's/^ran \([^ ]*\) with .*/\1/p' "$CALLS" | sed "s/^${A// /+}\$/A/; s/^${B// /+}\$/B/" | tr -d '\n')
[ "$order" = ABBA ] || fail "runs in the order $order, not ABBA: $(cat "$CALLS")"
while read -r _ side _ with; do
	want=$A
	[ "$side" = "${A// /+}" ] || want=$B
	for w in $want; do [[ " $with " == *" $w "* ]] || fail "a run of $side saw $with"; done
done < <(grep '^ran ' "$CALLS")
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "features not restored: $(cat "$dbg/sched/features")"
out=$src/lkp-ab-both-g4
[ -f "$out/table" ] && [ ! -e "$out.partial" ] || fail "no $out/table: $(ls "$src")"
want=$(awk '{ print $1, "hackbench.throughput", $2; print $1, "perf-stat.ps.cpu-migrations", $3 }' "$t/numbers" |
	"$S" -a "${A// /+}" -b "${B// /+}" -H hackbench.throughput)
[ "$(cat "$out/table")" = "$want" ] || fail "run-ab.sh's table is not stats' on the same numbers: $(diff <(echo "$want") "$out/table")"
grep -q "perf-stat.ps.context-switches is not in every run's stats.json; left out" "$t/err" ||
	fail "the field one run lacks was not named: $(cat "$t/err")"
grep -q 'hackbench.throughput .*1050.3750' "$out/table" || fail "A's mean of hackbench.throughput is not 1050.375: $(cat "$out/table")"
[ "$(wc -l <"$out/roots")" = 4 ] || fail "roots: $(cat "$out/roots")"
sed 's/^/# /' "$out/table" | head -n 3

# SIGINT in the middle of the second run: that lkp run and its child are
# stopped, nothing more runs, the features come back, no output is left.
fixtures "$A" "$B"
: >"$CALLS"
# A background job starts with SIGINT ignored, which a shell cannot undo.
HANG=2 AB_OUT=$t/int env --default-signal=INT "$J/lkp/run-ab.sh" "$J/lkp/both-g4.yaml" "$src/split/both-g4" \
	>"$t/int.out" 2>&1 &
job=$!
wait_until 20 "$job" test -s "$t/hang-child" || fail "the second lkp run never started: $(cat "$t/int.out")"
[ "$(cat "$dbg/sched/features")" != "$features" ] || fail "the hanging run did not write its features"
kill -INT "$job"
rc=0
wait "$job" || rc=$?
[ "$rc" = 130 ] || fail "SIGINT: run-ab.sh exited $rc: $(cat "$t/int.out")"
[ "$(cat "$t/hang-signal" 2>/dev/null)" = TERM ] || fail "SIGINT: the running lkp run got no SIGTERM"
# gone PID: PID has ended (a zombie, if nothing has reaped it yet, has too).
gone() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 0
	[ "${st%% *}" = Z ]
}
wait_until 5 - gone "$(cat "$t/hang-child")" || fail "SIGINT: the lkp run's child is still running"
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "SIGINT: features not restored: $(cat "$dbg/sched/features")"
[ "$(grep -c '^ran ' "$CALLS")" = 2 ] || fail "SIGINT: runs went on: $(cat "$CALLS")"
[ ! -e "$t/int" ] && [ ! -e "$t/int.partial" ] || fail "SIGINT: output left: $(ls "$t")"
echo "# SIGINT in run 2: its lkp run stopped (SIGTERM to its group, child gone), features restored, nothing left"

# Refusals, with nothing run.
R=$J/lkp/run-ab.sh
cd "$src" || fail "no $src"
: >"$CALLS"
mkdir -p "$t/empty"
expect_error 1 "lacks the job of side A: lkp split-job -o" -- "$R" "$J/lkp/both-g4.yaml" "$t/empty"
expect_error 1 "no directory $t/none: mkdir -p" -- "$R" "$J/lkp/both-g4.yaml" "$t/none"
expect_error 1 "has no '# sp-' lines" -- "$R" "$J/mmtests/config-both-g4" split/both-g4
expect_error 1 "REPS=1: want 2 or more" -- env REPS=1 "$R" "$J/lkp/both-g4.yaml" split/both-g4
expect_error 1 "no stats tool at $t/nostats: run make tools" -- env STATS=$t/nostats "$R" "$J/lkp/both-g4.yaml" split/both-g4
mkdir -p "$t/dup"
cp split/both-g4/*.yaml "$t/dup"
for f in "$t"/dup/*; do cp "$f" "${f%.yaml}-again.yaml"; done
expect_error 1 "has two jobs of side [AB]" -- "$R" "$J/lkp/both-g4.yaml" "$t/dup"
echo "SIS_UTIL" >"$dbg/sched/features"
expect_error 1 "unknown sched feature 'UTIL_FITS_CAPACITY' \(a switch of the series needs a kernel of the series: make deb builds one\)" -- "$R" "$J/lkp/both-g4.yaml" split/both-g4
! grep -q '^ran' "$CALLS" || fail "a refused run-ab.sh ran lkp: $(cat "$CALLS")"
echo "$features" >"$dbg/sched/features"
fixtures "$A" "$B"
expect_error 1 "it made no result root under $t/lkpresult/hackbench" -- env NOROOT=1 AB_OUT="$t/noroot" "$R" "$J/lkp/both-g4.yaml" split/both-g4
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "no result root: features not restored: $(cat "$dbg/sched/features")"
[ ! -e "$t/noroot" ] && [ ! -e "$t/noroot.partial" ] || fail "a failed run-ab.sh left output: $(ls "$t")"
# A failed run and a run without its link: the root it made, and the
# workload's output there, are named.
a0=$res/${A// /_}/0
fixtures "$A" "$B"
expect_error 1 "failed \(exit 3\); its result root: $a0 \(the workload's output: $a0/hackbench\)" -- env FAILRUN=1 AB_OUT="$t/fail" "$R" "$J/lkp/both-g4.yaml" split/both-g4
[ -f "$a0/hackbench" ] || fail "the fake lkp wrote no $a0/hackbench"
fixtures "$A" "$B"
expect_error 1 "made no link to its result root .*; its result root: $a0 " -- env NOLINK=1 AB_OUT="$t/fail" "$R" "$J/lkp/both-g4.yaml" split/both-g4
# A run too short for perf-stat, and one whose length is unknown.
ELAPSED=3 fixtures "$A" "$B"
loops=$(sed -n 's/^  loops: *//p' "$J/lkp/both-g4.yaml")
expect_error 1 "ran its workload for 3(\\.0)? s, under LKP_MIN_SECS=10: .* give make jobs HB_LOOPS=$((loops * 5)) \(this job has $loops\)" -- env AB_OUT="$t/short" "$R" "$J/lkp/both-g4.yaml" split/both-g4
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "short run: features not restored: $(cat "$dbg/sched/features")"
[ ! -e "$t/short" ] && [ ! -e "$t/short.partial" ] || fail "a short run left output: $(ls "$t")"
ELAPSED=- fixtures "$A" "$B"
expect_error 1 "gave no hackbench.time.elapsed_time in .*: install GNU time" -- env AB_OUT="$t/short" "$R" "$J/lkp/both-g4.yaml" split/both-g4
ELAPSED=3 fixtures "$A" "$B"
LKP_MIN_SECS=0 AB_OUT="$t/unchecked" "$R" "$J/lkp/both-g4.yaml" split/both-g4 >/dev/null 2>&1 || fail "LKP_MIN_SECS=0 refused a short run"
expect_error 1 "lkp-ab-both-g4 exists: move it away" -- "$R" "$J/lkp/both-g4.yaml" split/both-g4
