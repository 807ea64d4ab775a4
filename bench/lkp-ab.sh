#!/usr/bin/env bash
# One A/B set under LKP (lkp-tests), on a machine booted into the patched
# kernel, as root: make jobs writes it as out/jobs/lkp/run-ab.sh beside the
# jobs, with lib.sh (bench/lib.sh).
#
#   [REPS=N] [STATS=path/to/stats] [AB_OUT=DIR] run-ab.sh JOB SPLIT_DIR
#
# JOB is an lkp/SET.yaml of make jobs: its "# sp-" lines name the set, the
# features file words of its sides, the fields to compare (the testcase's
# first), those where higher is better, and the runs per side. SPLIT_DIR
# holds what `lkp split-job -o SPLIT_DIR JOB` wrote: one job per side, told
# apart by their feature value. REPS times (default: the job's sp-reps), in
# the order A B B A A B ..., so that a drift over the session hits both sides
# alike, one `lkp run` of each side's job: one run of the workload each, its
# own result root. After each run the features file must show the side's
# words (lkp-tests' sched_feature setup writes them, and does nothing when
# debugfs is not mounted), and the run's new result root must hold the
# testcase's field in its stats.json; the other fields (perf-stat's, absent
# in a VM) are compared where every run has them. Then STATS, build/bin/stats
# of the repository by default (make tools), prints the table of A against B.
#
# sched_feature has no teardown: after an lkp run the side's switches stay
# written. run-ab.sh saves the features file first and writes it back at the
# end, and on SIGINT, SIGTERM or SIGHUP once the running lkp run is stopped
# (it runs in a process group of its own: bench/lib.sh run_group).
#
# Each run's workload must last LKP_MIN_SECS (default 10; 0: unchecked),
# by TESTCASE.time.elapsed_time in its stats.json (GNU time's, around the
# testcase: lkp-tests' bin/run-test): perf-stat's per-second rates count
# whole one-second intervals of the lkp run, the last, partial one
# dropped, over its whole time, so on a short run they measure LKP's
# start-up. A shorter run stops run-ab.sh, which names the loops (or
# seconds) to give make jobs.
#
# AB_OUT (default lkp-ab-SET in the current directory) gets raw (the stats
# input, "SIDE FIELD VALUE" a line), roots ("SIDE RESULT_ROOT" per run, in
# run order), table, and log/ (each lkp run's output); it is AB_OUT.partial
# until the table is written, and removed if the run fails: the error names
# the failed run's result root, which lkp run makes under LKP_RESULT
# (/lkp/result, lkp-tests' RESULT_ROOT_DIR)/TESTCASE/ before it runs the job
# and links to -o only at its end (bin/run-local), the workload's output
# being its file TESTCASE, and shows the end of lkp run's output. LKP is the lkp
# command (default lkp on PATH), SP_DEBUGFS stands for /sys/kernel/debug (the
# tests give fakes of all three).
set -euo pipefail
usage="usage: [REPS=N] [STATS=path/to/stats] [AB_OUT=DIR] run-ab.sh JOB SPLIT_DIR"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
job=$1 split=${2%/}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
F=$SCHED_FEATURES
err() { echo "error: $*" >&2; exit 1; }
# squeeze WORDS: WORDS with one space between each.
squeeze() { local w; read -ra w <<<"$1"; echo "${w[*]}"; }

[ -r "$job" ] || err "no job at $job; give an lkp/SET.yaml of make jobs"
# meta KEY: the value of JOB's "# sp-KEY: " line.
meta() { sed -n "s/^# sp-$1: *//p" "$job" | head -n 1; }
set=$(meta set) a=$(meta side-a) b=$(meta side-b) higher=$(meta higher)
read -ra fields <<<"$(meta fields)"
[ -n "$set" ] && [ -n "$a" ] && [ -n "$b" ] && [ ${#fields[@]} -gt 0 ] ||
	err "$job has no '# sp-' lines (set, side-a, side-b, fields); use a job of make jobs"
reps=${REPS:-$(meta reps)}
[[ $reps =~ ^[0-9]+$ ]] && [ "$reps" -ge 2 ] ||
	err "REPS=$reps: want 2 or more runs per side (a side of one run has no spread)"
STATS=${STATS:-$here/../../../build/bin/stats}
[ -x "$STATS" ] || err "no stats tool at $STATS: run make tools in the sched-placement checkout, or give STATS=path/to/stats"
min_secs=${LKP_MIN_SECS:-10}
[[ $min_secs =~ ^[0-9]+$ ]] || err "LKP_MIN_SECS=$min_secs: want whole seconds (0: unchecked)"
testcase=$(sed -n 's/^testcase: *//p' "$job" | head -n 1)
[ -n "$testcase" ] || err "$job has no testcase: use a job of make jobs"
results=${LKP_RESULT:-/lkp/result}
LKP=${LKP:-lkp}
command -v "$LKP" >/dev/null || err "$LKP not found: install lkp-tests (make install in its checkout) or give LKP=path/to/lkp"

# The split jobs: exactly one per side, by the value of sched_feature's
# feature (lkp split-job writes it unquoted; quotes are dropped all the same).
[ -d "$split" ] || err "no directory $split: mkdir -p $split && lkp split-job -o $split $job (split-job writes nothing, and exits 0, when it is missing)"
side_value() { squeeze "$(sed -n 's/^ *feature: *//p' "$1" | head -n 1 | tr -d "\"'")"; }
ja='' jb=''
for f in "$split"/*.yaml; do
	[ -e "$f" ] || break
	v=$(side_value "$f")
	if [ "$v" = "$(squeeze "$a")" ]; then
		[ -z "$ja" ] || err "$split has two jobs of side A ($ja, $f): give a directory with only the split of $job"
		ja=$f
	elif [ "$v" = "$(squeeze "$b")" ]; then
		[ -z "$jb" ] || err "$split has two jobs of side B ($jb, $f): give a directory with only the split of $job"
		jb=$f
	fi
done
if [ -z "$ja" ] || [ -z "$jb" ]; then
	missing=A
	[ -z "$ja" ] || missing=B
	err "$split lacks the job of side $missing: lkp split-job -o $split $job (after a plain lkp install, which writes the hosts file split-job needs)"
fi

# Root, debugfs (lkp-tests' sched_feature setup does nothing without it)
# and the sides' switches.
# shellcheck disable=SC2086 # the sides are lists of words
features_preflight run-ab.sh "sudo ./run-ab.sh JOB SPLIT_DIR" $a $b || exit 1

out=${AB_OUT:-lkp-ab-$set}
[ ! -e "$out" ] || err "$out exists: move it away or give AB_OUT=DIR"
rm -rf "$out.partial"
mkdir -p "$out.partial/log"
save_features
cleanup_on_exit 'stop_group; restore_features; rm -rf "$out.partial"'

# field FILE KEY: KEY's number in FILE, a JSON object of one key a line (LKP
# writes stats.json with JSON.pretty_generate).
field() {
	awk -v k="\"$2\":" 'i = index($0, k) { v = substr($0, i + length(k)); gsub(/[ ,]/, "", v); print v; f = 1; exit }
		END { exit !f }' "$1"
}
num='^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$'
# roots: the result roots of this testcase, by their job.sh (lkp run
# writes it at the start of the run); new_roots: those not in $before.
roots() { find "$results/$testcase" -name job.sh 2>/dev/null | sed 's|/job.sh$||' | sort; }
new_roots() { roots | comm -13 "$before" -; }
# run_failed WHY: the lkp run of $j failed WHY: its result root, and the
# end of lkp run's output.
run_failed() {
	local r where
	r=$(new_roots | tail -n 1)
	if [ -n "$r" ]; then
		where="its result root: $r (the workload's output: $r/$testcase)"
	else
		where="it made no result root under $results/$testcase (LKP keeps 100 runs of a job, .../0 to .../99: move older ones away)"
	fi
	echo "error: lkp run $j $1; $where; the end of lkp run's output ($log):" >&2
	tail -n 20 "$log" | sed 's/^/  /' >&2
	exit 1
}
# knob: what make jobs takes for the length of this job's workload, and
# its value in the job.
knob() {
	local k=HB_LOOPS key=loops
	case $testcase in
	perf-bench-sched-pipe) k=PIPE_LOOPS ;;
	perf-bench-sched-messaging) k=MSG_LOOPS ;;
	tbench) k=TBENCH_SECS key=runtime ;;
	schbench) k=SCHBENCH_SECS key=runtime ;;
	esac
	echo "$k $(sed -n "s/^ *$key: *\([0-9]*\).*/\1/p" "$j" | head -n 1)"
}
# check_length ROOT: the workload of ROOT lasted min_secs.
check_length() {
	local secs k cur
	[ "$min_secs" != 0 ] || return 0
	secs=$(field "$1/stats.json" "$testcase.time.elapsed_time") && [[ $secs =~ $num ]] ||
		run_failed "gave no $testcase.time.elapsed_time in $1/stats.json, so its length is unknown: install GNU time (lkp install does), or LKP_MIN_SECS=0 to leave it unchecked"
	awk -v s="$secs" -v m="$min_secs" 'BEGIN { exit !(s < m) }' || return 0
	read -r k cur < <(knob)
	run_failed "ran its workload for $secs s, under LKP_MIN_SECS=$min_secs: perf-stat's per-second rates would count LKP's start-up as much as the workload; give make jobs $k=$(awk -v c="${cur:-0}" -v s="$secs" -v m="$min_secs" 'BEGIN { v = c * m * 1.5 / (s > 0 ? s : 1); printf "%d", v == int(v) ? v : int(v) + 1 }') (this job has ${cur:-?}), or LKP_MIN_SECS=0 to leave it unchecked"
}
n=0
for ((r = 1; r <= reps; r++)); do
	order="A B"
	[ $((r % 2)) = 1 ] || order="B A"
	for side in $order; do
		n=$((n + 1))
		if [ "$side" = A ]; then j=$ja words=$a; else j=$jb words=$b; fi
		echo "run-ab: $set run $r/$reps of $side: $words" >&2
		log=$out.partial/log/$n-$side before=$out.partial/before
		rm -f "$out.partial/result"
		roots >"$before"
		run_group "$LKP" run -o "$out.partial/result" "$j" >"$log" 2>&1 || run_failed "failed (exit $?)"
		root=$(readlink -f "$out.partial/result" 2>/dev/null) && [ -d "$root" ] ||
			run_failed "made no link to its result root (lkp run links -o at its very end)"
		! grep -qxF -e "A $root" -e "B $root" "$out.partial/roots" 2>/dev/null ||
			run_failed "made no new result root ($root again: LKP keeps 100 runs of a job, .../0 to .../99: move older ones away)"
		echo "$side $root" >>"$out.partial/roots"
		features_show "$words" ||
			run_failed "left $F showing $(cat "$F"), not $words: did sched_feature's setup run?"
		for k in "${fields[@]}"; do
			if v=$(field "$root/stats.json" "$k") && [[ $v =~ $num ]]; then
				echo "$side $k $v" >>"$out.partial/raw"
			elif [ "$k" = "${fields[0]}" ]; then
				run_failed "gave no number for $k in $root/stats.json"
			fi
		done
		check_length "$root"
	done
done
restore_features

# The fields every run has; the others are named and left out.
keep=()
for k in "${fields[@]}"; do
	if [ "$(grep -cF " $k " "$out.partial/raw")" = $((2 * reps)) ]; then
		keep+=("$k")
	else
		echo "run-ab: $k is not in every run's stats.json; left out" >&2
	fi
done
label() { squeeze "$1" | tr ' ' +; }
hopt=()
[ "$higher" = - ] || [ -z "$higher" ] || hopt=(-H "$higher")
for k in "${keep[@]}"; do grep -F " $k " "$out.partial/raw"; done |
	"$STATS" -a "$(label "$a")" -b "$(label "$b")" "${hopt[@]}" >"$out.partial/table" ||
	err "$STATS failed (above) on: $(tr '\n' ';' <"$out.partial/raw")"
mv "$out.partial" "$out"
cat "$out/table"
echo "run-ab: $set, $reps runs per side: $out/ (raw, roots, table, log/)" >&2
