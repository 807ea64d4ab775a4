#!/usr/bin/env bash
# check: full, budget 2400 s
# Smoke A/B of the base kernel against the patched kernel with every feature
# at its default (one boot each): both kernels run the workload under perf
# stat and the table compares them. Only a working comparison is asserted;
# the figures are printed, and a real run uses BOOTS and REPS.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
PRESET=2s4llc BOOTS=1 REPS=3 WORKLOAD='hackbench -g 1 -f 4 -l 200 --threads --pipe' \
	"$TOP/scripts/base-vs-series.sh" "$t" >"$t/log" 2>&1 || fail "base-vs-series.sh failed: $(tail -n 20 "$t/log")"
for side in A B; do
	n=$(grep -c "^$side time_s " "$t/ab.raw" || true)
	[ "$n" = 3 ] || fail "$n timed runs for side $side, want 3: $(cat "$t/ab.raw")"
done
grep -qE '^Amean migrations' "$t/report.txt" || fail "no table: $(cat "$t/report.txt")"
file "$t/ab.png" | grep -q 'PNG image data' || fail "no ab.png"
grep -q '^ab-run: 4/4 runs (1 warm-up)' "$t/log" || fail "no progress lines from the guest: $(cat "$t/log")"
grep -E '^(Kernels|Amean)' "$t/report.txt" | sed 's/^/# /'
