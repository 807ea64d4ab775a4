#!/usr/bin/env bash
# check: quick, budget 300 s
# Boot the 16-CPU preset (topology check) and run a smoke A/B of a mainline
# feature: SIS_UTIL vs NO_SIS_UTIL around hackbench under perf stat, 5
# interleaved runs per side after a warm-up pair. It must produce a full table,
# restore the features file, and reject an unknown feature name without
# touching the file. The same boot checks that the command's stdout, stderr
# and exit status come back exactly.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
F=/sys/kernel/debug/sched/features
"$TOP/scripts/vm.sh" -p 2s4llc -w "$t" -- sh -c "
	cat $F > $t/before
	$TOP/bench/ab-run.sh -f NO_SUCH_FEATURE -- true 2> $t/unknown; echo \$? > $t/unknown.rc
	cat $F > $t/after-unknown
	$TOP/bench/ab-run.sh -f SIS_UTIL -n 5 -w 1 -- hackbench -g 4 -f 10 -l 100 --threads --pipe
	cat $F > $t/after
	nproc > $t/nproc
	echo to-stderr >&2; exit 3" >"$t/raw" 2>"$t/err" || rc=$?
[ "${rc:-0}" = 3 ] || fail "exit status ${rc:-0}, want 3: $(cat "$t/err")"
grep -qx to-stderr "$t/err" || fail "stderr lost: $(cat "$t/err")"
[ "$(cat "$t/nproc")" = 16 ] || fail "guest has $(cat "$t/nproc") CPUs, want 16"
[ "$(cat "$t/unknown.rc")" = 1 ] || fail "unknown feature: exit $(cat "$t/unknown.rc"), want 1"
grep -q "unknown sched feature 'NO_SUCH_FEATURE'" "$t/unknown" || fail "unknown feature message: $(cat "$t/unknown")"
cmp -s "$t/before" "$t/after-unknown" || fail "features file changed by a rejected name"
cmp -s "$t/before" "$t/after" || fail "features file not restored after the A/B"
"$BUILD/bin/stats" -a SIS_UTIL -b NO_SIS_UTIL -m 5 <"$t/raw" >"$t/table" || fail "stats rejected the run: $(cat "$t/raw")"
sed 's/^/# /' "$t/table"
for m in time_s migrations ctxsw cpus_utilised wait_us; do
	grep -q "^Amean $m " "$t/table" || fail "no $m row"
done
# The series' switches are present at their defaults (switches.h): on for
# existing behaviour, off for the new heuristics.
for f in $(series_switches -d); do
	tr ' ' '\n' <"$t/before" | grep -qx "$f" || fail "${f#NO_} missing or not at its default ($f): $(cat "$t/before")"
done
echo "# defaults: $(series_switches -d | xargs)"
