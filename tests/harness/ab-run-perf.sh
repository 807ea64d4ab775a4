#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/ab-run.sh when perf stat counts nothing: a perf that exits 0 and
# writes no counters (a stand-in on PATH here) stops the run with an error
# that names it, instead of reporting the previous run's counters again.
# A broken perf on the host did that to a make bench run once: 23 runs
# with the same 5100 migrations and no time.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir -p "$t/bin" "$t/dbg/sched" "$t/sys/kernel"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY" >"$t/dbg/sched/features"
echo 0 >"$t/sys/kernel/sched_schedstats"
export SP_DEBUGFS=$t/dbg SP_PROCSYS=$t/sys SP_WHERE=0
real=$(command -v perf) || fail "no perf on this host"
# perf as it should be for the first two runs (a warm-up pair), then a
# stand-in that runs nothing and writes nothing.
cat >"$t/bin/perf" <<STUB
#!/bin/sh
n=\$(cat "$t/n" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$t/n"
[ "\$n" -lt 2 ] && exec "$real" "\$@"
exit 0
STUB
chmod +x "$t/bin/perf"
rc=0
PATH="$t/bin:$PATH" "$TOP/bench/ab-run.sh" -f UTIL_FITS_CAPACITY -n 2 -w 1 -- true >"$t/raw" 2>"$t/err" || rc=$?
[ "$rc" = 1 ] || fail "ab-run.sh with a perf that counts nothing: exit $rc, want 1: $(cat "$t/raw" "$t/err")"
grep -q "error: perf stat counted nothing ($t/bin/perf)" "$t/err" || fail "no error naming perf: $(cat "$t/err")"
! grep -q migrations "$t/raw" || fail "counters reported for a run perf did not count: $(cat "$t/raw")"
[ "$(cat "$t/dbg/sched/features")" = "SIS_UTIL NO_UTIL_FITS_CAPACITY" ] || fail "features not restored: $(cat "$t/dbg/sched/features")"
echo "# $(cat "$t/err")"
