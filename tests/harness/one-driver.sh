#!/usr/bin/env bash
# check: quick, budget 120 s
# make and make bench take one path (issue 48): make is make bench with one
# set, ab, given inline (FEATURE around WORKLOAD). In host mode (HOST=1,
# against fake_host's sysfs and debugfs, tests/lib.sh) main.sh
# runs bench/series-ab.sh once, with set ab alone (its sets/sets and
# sets/done, its one progress line), and its report has the sections of a
# make bench report: the same head, the defaults printed in it (runs a
# side and warm-up pairs, REPS's default), the machine, the set's section,
# table and normalized rows. In the guest's path (bench.sh with the inline
# set, as main.sh execs it once the kernel is built; vm.sh a stand-in that
# records its arguments and runs the command here), the inline set reaches
# the guest's series-ab.sh, the guest gets the boot and half a minute a
# pair, and the head names PRESET's default.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"
# The switch the A/B flips starts on: its runs end with it off or on, and
# only restoring the features brings back the line they started with.
fake_host "$t" SIS_SMALL_LLC
dbg=$SP_DEBUGFS features=$(cat "$SP_DEBUGFS/sched/features")
# This host's tracing and MSRs are left alone: no mig_* or turbo_* rows.
export SP_RESULTS=$t/results SP_WHERE=0 SP_TURBOSTAT=0 REPS=2
unset SETS FEATURE WORKLOAD SCHED_LAT BENCH_TIMEOUT BENCH_KERNEL PRESET
pipe='perf bench sched pipe -l 2000'
# skeleton REPORT: its sections in order, without their numbers and names.
skeleton() {
	awk '/^== /{ print "== SET"; next } /^   A: /{ print "A/B"; next } /^   workload: /{ print "workload"; next }
		/^Amean / { if (!t++) print "table"; next } /^Normalized/ { print "normalized"; next }
		/^[A-Z][a-z]*: / { print $1 }' "$1"
}

HOST=1 FEATURE=SIS_SMALL_LLC WORKLOAD=$pipe "$TOP/scripts/main.sh" >"$t/make.out" 2>"$t/make.err" ||
	fail "make HOST=1 failed: $(cat "$t/make.err")"
m=$(find "$t/results" -mindepth 1 -maxdepth 1 -name '*-host-SIS_SMALL_LLC')
[ -n "$m" ] || fail "no results/<time>-host-SIS_SMALL_LLC: $(ls "$t/results")"
[ "$(cat "$m/sets/sets" 2>/dev/null)" = ab ] && [ "$(cat "$m/sets/done" 2>/dev/null)" = ab ] ||
	fail "make did not run series-ab.sh with set ab alone: $(ls -R "$m")"
[ "$(grep -c '^== ' "$t/make.err")" = 1 ] && grep -qx '== ab: SIS_SMALL_LLC A/B' "$t/make.err" ||
	fail "series-ab.sh's progress: want one line, set ab: $(cat "$t/make.err")"
for f in ab.raw ab.meta ab.csv ab.png results.json machine; do
	[ -s "$m/sets/$f" ] || fail "make: no sets/$f: $(ls "$m/sets")"
done
[ "$(grep -c '^A ctxsw ' "$m/sets/ab.raw")" = 2 ] || fail "make: want 2 runs of A: $(cat "$m/sets/ab.raw")"
grep -qx "workload=$pipe" "$m/sets/ab.meta" || fail "make: the workload recorded: $(cat "$m/sets/ab.meta")"
runs="Runs:     2 a side, interleaved, after $AB_WARMUP warm-up pair (REPS, default $AB_REPS)"
grep -qxF "$runs" "$m/report.txt" || fail "make: no defaults in the head: $(cat "$m/report.txt")"
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "make: features not restored: $(cat "$dbg/sched/features")"

HOST=1 SETS=pipe PIPE_LOOPS=2000 SCHED_LAT=0 "$TOP/scripts/bench.sh" >"$t/bench.out" 2>&1 ||
	fail "make bench HOST=1 failed: $(cat "$t/bench.out")"
b=$(find "$t/results" -mindepth 1 -maxdepth 1 -name '*-host-bench')
[ -n "$b" ] || fail "no results/<time>-host-bench: $(ls "$t/results")"
skeleton "$m/report.txt" >"$t/make.sk"
skeleton "$b/report.txt" >"$t/bench.sk"
diff "$t/bench.sk" "$t/make.sk" >&2 || fail "make's report and make bench's differ in their sections (above)"
grep -qx 'Machine:' "$t/make.sk" && grep -qx 'Runs:' "$t/make.sk" && grep -qx normalized "$t/make.sk" ||
	fail "the reports lack a section: $(cat "$t/make.sk")"
echo "# make HOST=1 and make bench HOST=1, one report: $(paste -sd' ' "$t/make.sk")"

# The guest's path, with a stand-in vm.sh: what it is given, and the
# command run here as the guest would run it.
mkdir -p "$t/bin" "$t/vmres"
# Like vm.sh, it names its clock in VM_KEEP.
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\nmkdir -p "$VM_KEEP" && echo "icount shift=3: as vm.sh says it" >"$VM_KEEP/clock"\necho "$VM_ICOUNT_DEFAULT" >"%s.icount"\nwhile [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n' "$t/vm.args" "$t/vm.args" >"$t/bin/vm.sh"
chmod +x "$t/bin/vm.sh"
: >"$t/bzImage"
SP_RESULTS=$t/vmres VM_SH=$t/bin/vm.sh BENCH_KERNEL=$t/bzImage BUILD=$t/build SETS=ab \
	SP_INLINE_FEATURE=SIS_SMALL_LLC SP_INLINE_WORKLOAD=$pipe SCHED_LAT=0 \
	"$TOP/scripts/bench.sh" >"$t/vm.out" 2>&1 || fail "bench.sh with the inline set, in the guest's path: $(cat "$t/vm.out")"
v=$(find "$t/vmres" -mindepth 1 -maxdepth 1 -name '*-zen3-SIS_SMALL_LLC')
[ -n "$v" ] || fail "no results/<time>-zen3-SIS_SMALL_LLC: $(ls "$t/vmres")"
a=$(paste -sd' ' "$t/vm.args")
[[ $a == "-p zen3 -k $t/bzImage -t $((300 + 30 * (2 + AB_WARMUP))) -w $v.partial/sets -- env "*"SP_INLINE_FEATURE=SIS_SMALL_LLC SP_INLINE_WORKLOAD=$pipe SP_OUT=$v.partial/sets SP_REPORT=0 $TOP/bench/series-ab.sh -n 2 ab" ]] ||
	fail "the guest's command: $a"
grep -q '^Topology: preset zen3 (PRESET, default zen3), as checked inside the guest:$' "$v/report.txt" &&
	grep -qxF "$runs" "$v/report.txt" && grep -q '^== ab: SIS_SMALL_LLC A/B$' "$v/report.txt" ||
	fail "the guest's path: the report's head or section: $(cat "$v/report.txt")"
# The clock: the A/B's default given to vm.sh, vm.sh's words in the head,
# its name in every row of results.json.
[ "$(cat "$t/vm.args.icount")" = "$AB_ICOUNT_DEFAULT" ] ||
	fail "the guest's path: vm.sh was not given the A/B's clock (VM_ICOUNT_DEFAULT=$(cat "$t/vm.args.icount"))"
grep -qxF "Clock:    icount shift=3: as vm.sh says it (ICOUNT, default $AB_ICOUNT_DEFAULT)" "$v/report.txt" ||
	fail "the guest's path: no clock in the head: $(cat "$v/report.txt")"
[ "$(grep -c '"clock": "icount shift=3"}' "$v/sets/results.json")" = "$(grep -c '"set": ' "$v/sets/results.json")" ] ||
	fail "the guest's path: a row of results.json without the clock: $(head -n 3 "$v/sets/results.json")"
grep -q '"clock": "hardware"}' "$b/sets/results.json" || fail "host mode: results.json without the clock: $(head -n 3 "$b/sets/results.json")"
echo "# the guest's command: ${a#*-- }"
