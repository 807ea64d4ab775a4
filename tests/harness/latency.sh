#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/latency.sh, the cyclictest-next-to-hackbench workload of make bench,
# on the host: its four metrics in ab-run.sh's "sp-metric:" form with
# consistent values, and a clear error when hackbench fails or rt-tests is
# missing, leaving no hackbench behind.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
L=$TOP/bench/latency.sh
command -v cyclictest >/dev/null && command -v hackbench >/dev/null || fail "rt-tests missing; run make deps"
"$L" 1 -g 1 -f 2 -l 50 --threads --pipe >"$t/out" 2>&1 || fail "latency.sh failed: $(cat "$t/out")"
for m in lat_p50_us lat_p99_us lat_max_us lat_overflow_pct; do
	grep -qE "^sp-metric: $m [0-9.]+$" "$t/out" || fail "no $m in: $(cat "$t/out")"
done
get() { awk -v m="$1" '$2 == m { print $3 }' "$t/out"; }
p50=$(get lat_p50_us) p99=$(get lat_p99_us) max=$(get lat_max_us) over=$(get lat_overflow_pct)
[ "$p50" -le "$p99" ] || fail "p50 $p50 above p99 $p99"
[ "$p99" -le "$max" ] || [ "$p99" = 100000 ] || fail "p99 $p99 above the maximum $max"
awk -v o="$over" 'BEGIN { exit !(o >= 0 && o <= 100) }' || fail "overflow share $over out of range"
echo "# p50 $p50 us, p99 $p99 us, max $max us, $over% past the histogram (host, under make check's load)"
# A histogram of one 1-us bucket: a timer wakeup takes microseconds, so
# nearly every sample lies past its end (counted from cyclictest's cycles,
# which the JSON report gives beside the non-empty buckets), and both
# percentiles read as that end.
LAT_HIST_US=1 "$L" 1 -g 1 -f 2 -l 50 --threads --pipe >"$t/out" 2>&1 || fail "latency.sh failed: $(cat "$t/out")"
p50=$(get lat_p50_us) p99=$(get lat_p99_us) over=$(get lat_overflow_pct)
[ "$p50" = 1 ] && [ "$p99" = 1 ] || fail "1-us histogram: p50 $p50, p99 $p99, want both 1"
awk -v o="$over" 'BEGIN { exit !(o > 90 && o <= 100) }' || fail "1-us histogram: $over% past its end, want > 90%"
echo "# 1-us histogram: $over% past its end"
expect_error 1 'hackbench .* failed' -- "$L" 1 -g notanumber
pgrep -x hackbench >/dev/null && fail "hackbench left running"
# A PATH with what latency.sh runs, hackbench included, but no cyclictest.
mkdir "$t/bin"
for c in bash dirname mktemp rm cat setsid touch awk hackbench; do
	ln -s "$(command -v "$c")" "$t/bin/$c"
done
expect_error 1 'cyclictest not found; install rt-tests' -- env PATH="$t/bin" "$L" 1 -g 1
