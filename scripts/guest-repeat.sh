#!/bin/bash
# Runs inside the guest for kselftest-repeat.sh: RUNS passes over TESTS (in
# the order given), one test per invocation of its program (PROG -t TEST),
# so a test starts from a quiet machine whatever the one before it did.
# Each PROG:TEST=LIMIT is killed (SIGTERM: the harness's teardown restores
# the features) after LIMIT seconds, and the run counts as not ok (exit
# 124). PROG is a path under DIR, the kselftest install. Writes
# OUT/r<run>-<test>.tap and a line per (run, test) to OUT/summary as it
# goes, so a run that is stopped keeps what it measured, and a line per
# test to stderr, shown live. OUT is shared read-write.
#   guest-repeat.sh DIR OUT RUNS PROG:TEST=LIMIT...
dir=$1 out=$2 runs=$3
shift 3
t0=$(date +%s)
for ((i = 1; i <= runs; i++)); do
	for tl in "$@"; do
		pt=${tl%=*} limit=${tl##*=}
		prog=${pt%%:*} t=${pt#*:}
		s=$(date +%s)
		timeout "$limit" "$dir/$prog" -t "$t" >"$out/r$i-$t.tap" 2>&1
		rc=$?
		e=$(date +%s)
		v=$(grep -m1 -oE '^(ok|not ok) [0-9]+ [^ ]*( # SKIP)?' "$out/r$i-$t.tap" | sed -E 's/ [0-9]+ [^ ]*//')
		echo "run $i $t rc=$rc verdict=[${v:-none}] secs=$((e - s)) elapsed=$((e - t0))" >>"$out/summary"
		echo "repeat: run $i/$runs $t rc=$rc [${v:-none}] $((e - s)) s, $((e - t0)) s in all" >&2
	done
done
echo done >>"$out/summary"
