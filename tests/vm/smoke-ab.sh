#!/usr/bin/env bash
# Smoke A/B of a mainline feature in the VM: SIS_UTIL vs NO_SIS_UTIL around
# hackbench under perf stat, 5 interleaved runs per side after a warm-up pair.
# It must produce a full table, restore the features file, and reject an
# unknown feature name without touching the file.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
F=/sys/kernel/debug/sched/features
"$TOP/scripts/vm.sh" -p 2s4llc -w "$t" -- sh -c "
	cat $F > $t/before
	$TOP/bench/ab-run.sh -f NO_SUCH_FEATURE -- true 2> $t/unknown; echo \$? > $t/unknown.rc
	cat $F > $t/after-unknown
	$TOP/bench/ab-run.sh -f SIS_UTIL -n 5 -w 1 -- hackbench -g 4 -f 10 -l 100 --threads --pipe
	cat $F > $t/after" >"$t/raw" || fail "VM run failed (exit $?)"
[ "$(cat "$t/unknown.rc")" = 1 ] || fail "unknown feature: exit $(cat "$t/unknown.rc"), want 1"
grep -q "unknown sched feature 'NO_SUCH_FEATURE'" "$t/unknown" || fail "unknown feature message: $(cat "$t/unknown")"
cmp -s "$t/before" "$t/after-unknown" || fail "features file changed by a rejected name"
cmp -s "$t/before" "$t/after" || fail "features file not restored after the A/B"
"$BUILD/bin/stats" -a SIS_UTIL -b NO_SIS_UTIL -m 5 <"$t/raw" >"$t/table" || fail "stats rejected the run: $(cat "$t/raw")"
sed 's/^/# /' "$t/table"
for m in time_s migrations ctxsw cpus_utilised; do
	grep -q "^Amean $m " "$t/table" || fail "no $m row"
done
