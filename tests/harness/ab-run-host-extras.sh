#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/ab-run.sh's host-mode extras, against a fake debugfs and /proc/sys:
# where turbostat runs (a stand-in on PATH that runs the command and writes
# the --Summary form turbostat writes: a tab-separated header and a row,
# then "N.NNNNNN sec"), every run has turbo_avg_mhz, turbo_bzy_mhz,
# turbo_busy_pct and turbo_cN_pct, which the table shows with no better
# direction ($AB_HIGHER's ~turbo_*); where it fails (no MSRs in a guest),
# a note and none; with SP_TURBOSTAT=0, none. With -l, every run has the
# wakeup latency percentiles of the named tasks from perf sched timehist:
# bench/wakelat.sh parses a timehist of a real perf sched record of
# hackbench (perf 6.1 on this host: tests/harness/fixtures/), p50 12 us and
# p99 956 us of its 22 wakeups (nearest rank; preempted switch-ins and
# other tasks left out); a perf whose sched record fails refuses -l before
# the first run, and a bad -l is refused.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"
fix=$TOP/tests/harness/fixtures/perf-sched-timehist.txt
out=$("$TOP/bench/wakelat.sh" A hackbench <"$fix")
[ "$out" = "$(printf 'A wakelat_p50_us 12\nA wakelat_p99_us 956')" ] || fail "wakelat.sh on the fixture: $out"
[ -z "$("$TOP/bench/wakelat.sh" B tbench,tbench_srv <"$fix")" ] || fail "wakelat.sh counted tasks not named"
expect_error 2 "usage: wakelat.sh" -- "$TOP/bench/wakelat.sh" C hackbench

mkdir -p "$t/bin" "$t/dbg/sched" "$t/sys/kernel"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY" >"$t/dbg/sched/features"
echo 0 >"$t/sys/kernel/sched_schedstats"
export SP_DEBUGFS=$t/dbg SP_PROCSYS=$t/sys SP_WHERE=0
real=$(command -v perf) || fail "no perf on this host"
cat >"$t/bin/turbostat" <<'EOF'
#!/bin/bash
# turbostat --quiet --Summary --show COLS --out FILE -- CMD...
while [ "$1" != -- ]; do
	[ "$1" != --out ] || { out=$2; shift; }
	shift
done
shift
[ -z "${TURBO_FAIL:-}" ] || { echo "turbostat: no /dev/cpu/0/msr" >&2; exit 1; }
"$@"
rc=$?
printf 'Avg_MHz\tBusy%%\tBzy_MHz\tCPU%%c1\tCPU%%c6\n1234\t35.20\t3506\t20.10\t44.70\n0.004512 sec\n' >"$out"
exit $rc
EOF
# perf: sched record runs its command and writes the data file, sched
# timehist prints the fixture; the rest is the real perf.
cat >"$t/bin/perf" <<EOF
#!/bin/bash
if [ "\$1 \$2" = "sched record" ]; then
	[ -z "\${SCHED_FAIL:-}" ] || { echo "Permission error" >&2; exit 1; }
	f=\$4; shift 5; : >"\$f"; exec "\$@"
fi
[ "\$1 \$2" != "sched timehist" ] || exec cat "$fix"
exec "$real" "\$@"
EOF
chmod +x "$t/bin/turbostat" "$t/bin/perf"
ab() { PATH="$t/bin:$PATH" "$TOP/bench/ab-run.sh" -f UTIL_FITS_CAPACITY -n 2 -w 1 "$@" >"$t/raw" 2>"$t/err"; }
ab -l hackbench -- true || fail "ab-run.sh failed: $(cat "$t/err")"
for m in "turbo_avg_mhz 1234" "turbo_bzy_mhz 3506" "turbo_busy_pct 35.20" "turbo_c1_pct 20.10" "turbo_c6_pct 44.70" \
	"wakelat_p50_us 12" "wakelat_p99_us 956"; do
	[ "$(grep -c "^[AB] $m$" "$t/raw")" = 4 ] || fail "want '$m' in each of 4 runs: $(cat "$t/raw")"
done
table=$("$TOP/build/bin/stats" -H "$AB_HIGHER" <"$t/raw") || fail "stats failed"
echo "$table" | grep -qE '^Amean turbo_c6_pct .* - ' || fail "turbo_c6_pct has a better direction: $table"
echo "# $(echo "$table" | grep '^Amean turbo_avg_mhz')"
TURBO_FAIL=1 ab -- true || fail "ab-run.sh with a turbostat that fails: $(cat "$t/err")"
! grep -q turbo_ "$t/raw" && grep -q 'turbostat does not run here' "$t/err" || fail "a failing turbostat: $(cat "$t/raw" "$t/err")"
! grep -q wakelat_ "$t/raw" || fail "wakelat without -l"
SP_TURBOSTAT=0 ab -- true || fail "ab-run.sh SP_TURBOSTAT=0: $(cat "$t/err")"
! grep -q turbo_ "$t/raw" || fail "turbo_* with SP_TURBOSTAT=0"
rc=0
SCHED_FAIL=1 ab -l hackbench -- true || rc=$?
[ "$rc" = 1 ] && grep -q 'error: -l: perf sched record fails here (Permission error' "$t/err" && ! grep -q . "$t/raw" ||
	fail "a perf sched that fails: exit $rc: $(cat "$t/raw" "$t/err")"
echo "# $(cat "$t/err")"
expect_error 2 "-l 'a,,b': want the workload's task names" -- "$TOP/bench/ab-run.sh" -f UTIL_FITS_CAPACITY -l a,,b -- true
[ "$(cat "$t/dbg/sched/features")" = "SIS_UTIL NO_UTIL_FITS_CAPACITY" ] || fail "features not restored"

# series-ab.sh with SCHED_LAT=1 (make bench HOST=1's default): -l for the
# hackbench and tbench sets, not the others; SCHED_LAT=x refused.
mkdir -p "$t/out"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV" >"$t/dbg/sched/features"
printf '#!/bin/sh\necho "Time: 0.01"\n' >"$t/bin/hackbench"
chmod +x "$t/bin/hackbench"
PATH="$t/bin:$PATH" SCHED_LAT=1 SP_OUT=$t/out SP_REPORT=0 PIPE_LOOPS=1000 "$TOP/bench/series-ab.sh" -n 2 both-g2 pipe 2>"$t/err" ||
	fail "series-ab.sh SCHED_LAT=1 failed: $(cat "$t/err")"
grep -q '^A wakelat_p99_us 956$' "$t/out/both-g2.raw" && grep -q '^B turbo_c6_pct ' "$t/out/both-g2.raw" ||
	fail "both-g2 with SCHED_LAT=1: $(cat "$t/out/both-g2.raw")"
! grep -q wakelat_ "$t/out/pipe.raw" || fail "pipe has wakeup latencies, which only hackbench and tbench sets measure"
expect_error 2 "SCHED_LAT=x: want 1 .* or 0" -- env SCHED_LAT=x SP_OUT="$t/out" "$TOP/bench/series-ab.sh" -n 2 pipe
echo "# series-ab.sh SCHED_LAT=1: $(grep -c wakelat_ "$t/out/both-g2.raw") wakelat lines in both-g2.raw, none in pipe.raw"
