#!/usr/bin/env bash
# check: quick, budget 60 s
# The cache ledger's path through the A/B, no QEMU: bench/ab-run.sh opens
# and closes a window (sp-mark, here a stand-in that logs) around every
# run, warm-up included, with labels that go on counting across sets of
# one boot, and maps each measured run's label to its side;
# bench/ledger.awk joins the plugin's window lines to that map as
# "SIDE METRIC VALUE" rows, and refuses a run without a window. Bad input
# to LEDGER is refused before anything boots.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir -p "$t/dbg/sched" "$t/sys/kernel" "$t/sets"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY" >"$t/dbg/sched/features"
echo 0 >"$t/sys/kernel/sched_schedstats"
export SP_DEBUGFS=$t/dbg SP_PROCSYS=$t/sys SP_WHERE=0 SP_TURBOSTAT=0
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$t/marks" >"$t/sp-mark"
chmod +x "$t/sp-mark"

# Two sets in one boot: 1 warm-up pair and 2 pairs each, labels 0-5, 6-11.
for s in one two; do
	SP_MARK=$t/sp-mark SP_LEDGER_MAP=$t/sets/$s.ledger "$TOP/bench/ab-run.sh" -f UTIL_FITS_CAPACITY -n 2 -w 1 -- true \
		>"$t/sets/$s.raw" 2>"$t/err" || fail "ab-run.sh with SP_LEDGER_MAP failed: $(cat "$t/err")"
done
want=$(for i in $(seq 0 11); do echo "start $i"; echo "end $i"; done)
[ "$(cat "$t/marks")" = "$want" ] || fail "sp-mark's calls, want start/end 0 to 11 in order: $(paste -sd' ' "$t/marks")"
[ "$(paste -sd' ' "$t/sets/one.ledger")" = "2 A 3 B 4 A 5 B" ] &&
	[ "$(paste -sd' ' "$t/sets/two.ledger")" = "8 A 9 B 10 A 11 B" ] ||
	fail "the maps, want the measured runs' labels and sides: $(cat "$t/sets/one.ledger" "$t/sets/two.ledger")"
echo "# ab-run.sh: 12 windows over two sets, the warm-up pairs' left out of the maps"

# The plugin's lines (ledger/README.md's fields, per-LLC ones among them):
# label L has l2_miss 100 + L, stall_ms L / 10.
for i in $(seq 0 11); do
	echo "window=$((i + 1)) label=$i vcpus=4 llcs=2 insns=$((1000 * i)) unmodelled=0 l1=5 l2=6 l3=7 c2c_llc=1" \
		"c2c_node=2 c2c_remote=3 dram_local=4 dram_remote=5 l2_miss=$((100 + i)) l3_miss=15 stall_cycles=9" \
		"stall_ms=0.$i llc0.l1=1 llc0.l2_miss=77 llc1.l2_miss=88"
done >"$t/ledger.txt"
awk -f "$TOP/bench/ledger.awk" "$t/ledger.txt" "$t/sets/one.ledger" >"$t/rows" || fail "ledger.awk failed on a complete ledger"
[ "$(wc -l <"$t/rows")" = 36 ] || fail "ledger.awk: want 9 metrics for each of 4 runs: $(cat "$t/rows")"
grep -qx 'B l2_miss 103' "$t/rows" && grep -qx 'A stall_ms 0.4' "$t/rows" && grep -qx 'B insns 5000' "$t/rows" &&
	grep -qx 'A c2c_node 2' "$t/rows" || fail "ledger.awk: a run's totals, not its LLC's: $(cat "$t/rows")"
! grep -q '^[AB] l2_miss 77$' "$t/rows" || fail "ledger.awk took an LLC's field for the total"
sed -i '/ label=4 /d' "$t/ledger.txt"
expect_error 1 "ledger: run 4 \\(side A\\) has no window in" -- awk -f "$TOP/bench/ledger.awk" "$t/ledger.txt" "$t/sets/one.ledger"
echo "# ledger.awk: 4 runs x 9 totals; a run without a window is an error"

# Bad input, before anything boots (an existing file stands in for the kernel).
V=$TOP/scripts/vm.sh
LEDGER=2 expect_error 1 "LEDGER=2: want 1 .the cache ledger on. or 0 .off." -- "$V" -k "$TOP/README.md" -- true
LEDGER=1 ICOUNT=off expect_error 1 "LEDGER=1 with ICOUNT=off: .*leave ICOUNT unset" -- "$V" -k "$TOP/README.md" -- true
mkdir -p "$t/build/ledger"
LEDGER=1 BUILD=$t/build expect_error 1 "LEDGER=1: the ledger is not built; run 'make ledger'" -- "$V" -k "$TOP/README.md" -- true
gcc -O2 -o "$t/build/ledger/test-model" "$TOP/ledger/test-model.c" "$TOP/ledger/model.c" || fail "test-model does not build"
: >"$t/build/ledger/libledger.so"
grep -v '^ghz' "$TOP/ledger/zen3.conf" >"$t/bad.conf"
LEDGER=1 BUILD=$t/build LEDGER_CONF=$t/bad.conf expect_error 1 "the machine file .*bad.conf is refused" -- "$V" -k "$TOP/README.md" -- true
PRESET=2s4llc LEDGER=1 ICOUNT=off expect_error 1 "LEDGER=1 with ICOUNT=off" -- "$TOP/scripts/bench.sh" --check
