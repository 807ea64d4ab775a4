#!/usr/bin/env bash
# `make stress`: the patched kernel under load while the series' switches
# (every one, all on at once among the combinations), sis_small_llc,
# sis_scan and sis_wake (read and cleared), CPU hotplug, affinity and cpuset
# partitions churn under it, beside an RT duty-cycle task
# (stress/sp-stress.c), in one boot.
#
#   stress.sh [-p PRESET] [-d SECONDS] [-k] [-t MIN_TOGGLES] [-m MIN_HOTPLUG]
#             [-f MIN_FITS] [-b]
#
#   -p  topology preset (default @small of scripts/presets)
#   -d  seconds of load (default 2400)
#   -k  also run the series' kselftests (run_kselftest.sh) before the load
#   -t  switch toggles the run must reach (default 1000)
#   -m  hotplug cycles the run must reach (default 100)
#   -f  wakeups the fit (sis_wake fit_*) and, apart, the bias (bias_*) must
#       each have decided (default one per 24 s of load: 100 for 2400 s)
#   -b  FLAVOR=kcsan: then the base reference, the same load on the base
#       kernel built the same way (see below)
#
# The defaults are what `make stress` runs. Under TCG the debug kernel is
# slow at exactly what this exercises: every flip of a switch patches kernel
# text (static keys), and every hotplug operation stops all CPUs, the more
# so the more CPUs there are. 2s4llc and 2400 s (800 s of storm, 1600 s of
# hotplug) reach the default counts with room to spare; the console of each
# run says how many it reached.
#
# MIN_FITS, an estimate to be checked against the first 2400 s run's
# counts: the bias decides only with SELECT_BIAS_PREV on and
# SIS_LIMIT_STACKING off (the narrowing skips its last step, and hackbench
# gives it no idle prev: the bench's limit-g4 counted no bias), so only in
# the storm's random steps, 3 in 16 of its steps: about 150 s of a 2400 s
# run. The bench under TCG counted about 1.2 bias_last and 2.3 fits per
# 1000 hackbench messages (zen2, both-g4: 240 and 460 a run of 200000);
# the stress's hackbench sends 10000 a run, about one run per 8 s on the
# KCSAN kernel (74 in 600 s in its record, the debug kernel no faster), so
# some 19 runs and 230 bias in those 150 s, and thousands of fits over the
# 2000 s the fit is on (all on outside the storm). One of each per 24 s,
# 100 in 2400 s, is under half the bias's estimate; a run where either
# never fired cannot pass.
#
# FLAVOR=debug (the default here) boots the debug kernel: lockdep with
# PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT, KASAN, hung-task and
# soft-lockup detectors, DEBUG_LIST; FLAVOR=kcsan the same detectors with
# KCSAN in place of lockdep and KASAN. The run passes only if the KUnit suite
# passed at boot, the kselftests (-k) and sp-stress exit 0, at least
# MIN_TOGGLES switch flips and MIN_HOTPLUG hotplug cycles happened, MIN_FITS
# decisions of the fit and MIN_FITS of the bias (sp-stress -f checks them
# in the guest too), and the console
# has no splat (vm.sh exits 98 on any BUG, WARNING, Oops, lockdep, KASAN, KCSAN or
# RCU stall report, or hung task; on the KCSAN kernel, where fair.c and debug.c
# are instrumented, a KCSAN report counts only if one of its access sites is a
# line the series adds or changes: scripts/series-lines.sh, placed with
# faddr2line in the kcsan build's vmlinux, which carries line info
# (console-check.sh KCSAN_LINES); without line info, if it is in a function the
# series adds or changes, base races inside such functions included
# (KCSAN_SCOPE). sp-stress itself fails if the features file or sis_small_llc
# do not end as they started, a CPU stays offline, a read of sis_wake does
# not parse or a count of it goes down without a clear, or the RT task
# cannot be made SCHED_FIFO. The record (results/...) keeps sp-stress's
# output, out, and its end block of counts, counts: each kind of churn, the
# seconds with every switch on, the RT periods and each decision of sis_wake
# over the run (wake_NAME).
#
# -b, the base reference (KCSAN only): base races are most of what KCSAN
# reports under this load. The base (build/linux-base) is built the same
# way, FLAVOR and KCSAN_SANITIZE extras, in build/kbuild-base-$FLAVOR, before
# either kernel boots; after the series run, whatever its outcome, it runs
# the same load (sp-stress -B: without the series' toggles, which the base
# does not have) for as long; no report there is the series'. Its console is in base/ of the record, and
# kcsan-titles lists each title's count on both and whether it is the
# series' (scripts/kcsan-titles.sh). The base run's own failures are
# reported, not counted: the run passes or fails on the series as without -b.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/results.sh"
. "$TOP/scripts/lib/vm-run.sh"
. "$TOP/scripts/lib/kunit.sh"
. "$TOP/scripts/lib/kbuild.sh"
. "$TOP/scripts/lib/stress-counts.sh"

preset=$(preset_default small) secs=2400 kself=0 min_toggles=1000 min_hotplug=100 min_fits='' base_ref=0
while getopts "p:d:kt:m:f:b" o; do
	case $o in
	p) preset=$OPTARG ;;
	d) secs=$OPTARG ;;
	k) kself=1 ;;
	t) min_toggles=$OPTARG ;;
	m) min_hotplug=$OPTARG ;;
	f) min_fits=$OPTARG ;;
	b) base_ref=1 ;;
	*) echo "usage: stress.sh [-p PRESET] [-d SECONDS] [-k] [-t MIN_TOGGLES] [-m MIN_HOTPLUG] [-f MIN_FITS] [-b]" >&2; exit 2 ;;
	esac
done
need_preset "$preset"
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "-d $secs: give the load time in whole seconds"
[[ $min_hotplug =~ ^[0-9]+$ ]] || die "-m $min_hotplug: give a number of hotplug cycles"
[[ $min_toggles =~ ^[0-9]+$ ]] || die "-t $min_toggles: give a number of switch toggles"
# The default: one decision of each per 24 s of load, at least one.
[ -n "$min_fits" ] || min_fits=$(( secs / 24 > 0 ? secs / 24 : 1 ))
[[ $min_fits =~ ^[0-9]+$ ]] || die "-f $min_fits: give a number of decisions of the fit and of the bias"
export FLAVOR=${FLAVOR:-debug}
[ "$base_ref" = 0 ] || [ "$FLAVOR" = kcsan ] || die "-b, the base reference, is for the KCSAN kernel: FLAVOR=kcsan"
command -v hackbench >/dev/null || die "hackbench not found; run 'make deps' (installs rt-tests)"

kernel=$("$TOP/scripts/build-kernel.sh")
# Both kernels before either boots: a base that does not build must not
# cost a whole series run first.
if [ "$base_ref" = 1 ]; then
	base_src=$(base_worktree "$BUILD/linux")
	base_kernel=$("$TOP/scripts/build-kernel.sh" "$base_src" "$BUILD/kbuild-base-$FLAVOR")
fi
make -s -C "$TOP" build/bin/sp-stress
stress=$TOP/build/bin/sp-stress
guest="$stress -H -c -d $secs -f $min_fits"
if [ "$kself" = 1 ]; then
	selftest=$("$TOP/scripts/build-selftests.sh")
	# hackbench_test measures migrations against a bar set on the VM
	# kernel; the load below runs hackbench under the churn anyway.
	guest="$selftest/run_kselftest.sh -S sched/placement:hackbench_test && $guest"
fi

# The run's console, dmesg and output go to results/<time>-<preset>-stress-<flavor>
# (results/...partial when the run fails or is stopped: a WARNING's call
# trace, a lockdep report, is read there).
results_begin "$(date -u +%Y%m%dT%H%M%SZ)-$preset-stress-$FLAVOR"
# The guest boots with 16 CPUs and brings the rest online from user space
# (vm.sh -c 16). Until the clocksource switch at fs_initcall the tick is
# periodic on every CPU, idle ones included, and each tick of the debug
# kernel also runs the periodic balance; under TCG, with every vCPU on one
# host thread, 64 of them took the whole host, and zen3's boot was still
# in the initcalls after an hour. Booted with 16 (the rest idle with
# their tick stopped once online), zen3's debug kernel ran its command
# after 10 min (record 2026-12-07-debug-stress-zen3).
#
# The guest's limit, in host seconds: the load, plus 15 min for the boot,
# KUnit and the kselftests on 16 CPUs (2s4llc's 2400 s debug run took
# 580 s for them), times the square of the preset's CPUs over 16: a bound
# for a hang, not an estimate. The load is timed by the guest's
# clocksource, which kept to the host's once booted (2s4llc's run ended
# at console time 2980 s, 3000 s after its start).
ncpus=$(preset_cpus "$preset")
scale=$(( ncpus > 16 ? (ncpus + 15) / 16 : 1 ))
limit=$(( secs + 900 * scale * scale ))
boot_cpus=()
[ "$ncpus" -le 16 ] || boot_cpus=(-c 16)
# The KCSAN kernel: only reports at the series' lines fail the run, or in
# its functions when the vmlinux has no line info (see console-check.sh,
# KCSAN_LINES and KCSAN_SCOPE); the others are listed, and kept in the
# console. The record keeps the scope: kcsan-lines, kcsan-scope, and
# kcsan-frames, where each access site was placed.
if [ "$FLAVOR" = kcsan ]; then
	"$TOP/scripts/series-functions.sh" >"$RESULTS/kcsan-scope"
	export KCSAN_SCOPE=$RESULTS/kcsan-scope
	vmlinux=${kernel%/arch/x86/boot/bzImage}/vmlinux
	if readelf -S "$vmlinux" 2>/dev/null | grep -q '\.debug_line'; then
		"$TOP/scripts/series-lines.sh" >"$RESULTS/kcsan-lines"
		export KCSAN_LINES=$RESULTS/kcsan-lines KCSAN_VMLINUX=$vmlinux KCSAN_FRAMES=$RESULTS/kcsan-frames
		export FADDR2LINE=${FADDR2LINE:-$BUILD/linux/scripts/faddr2line}
		kcsan_scope="the series' lines"
	else
		note "$vmlinux has no line info: KCSAN reports are scoped by function (configs/kcsan.config has lost its DEBUG_INFO lines?)"
		kcsan_scope="the series' functions"
	fi
fi
rc=0
VM_KEEP=$RESULTS vm_run -t "$RESULTS/out" -p "$preset" "${boot_cpus[@]}" -k "$kernel" -t "$limit" -- \
	sh -c "$guest" || rc=$?

fail=0
if [ "$rc" != 0 ]; then
	echo "error: the guest run failed (exit $rc; 98 = a splat on the console, 99 = panic or hang)" >&2
	fail=1
fi
# The suite's result is read from the console, which holds the whole run:
# dmesg is read at the end, and by then a long run's ring buffer may have
# dropped the boot (hotplug alone logs thousands of lines).
tap=$(kunit_suite_tap "$RESULTS/console.log")
if ! echo "$tap" | grep -qE '^ok [0-9]+ sched_placement$' || echo "$tap" | grep -q 'not ok'; then
	echo "error: the sched_placement KUnit suite did not pass at boot:" >&2
	echo "$tap" | grep -E 'not ok|^ok' >&2 || echo "(no suite on the console)" >&2
	fail=1
fi
# The record keeps the counts: each kind of churn, and each decision.
stress_counts "$RESULTS/out" >"$RESULTS/counts"
stress_judge "$RESULTS/out" "$min_toggles" "$min_hotplug" "$min_fits" || fail=1
toggles=$(stress_count "$RESULTS/out" 'switch toggles')
cycles=$(stress_count "$RESULTS/out" 'hotplug cycles')
fits=$(stress_wake_sum "$RESULTS/out" fit_)
bias=$(stress_wake_sum "$RESULTS/out" bias_)
all_on=$(stress_count "$RESULTS/out" 'all-switches-on seconds')
rt=$(stress_count "$RESULTS/out" 'RT duty-cycle periods')
if [ "$base_ref" = 1 ]; then
	note "the base reference: the same load on the base kernel, $FLAVOR, for $secs s"
	mkdir -p "$RESULTS/base"
	# An empty scope: every KCSAN report on the base is listed, none fails.
	: >"$RESULTS/base/kcsan-scope"
	brc=0
	KCSAN_SCOPE=$RESULTS/base/kcsan-scope KCSAN_LINES='' VM_KEEP=$RESULTS/base \
		vm_run -t "$RESULTS/base/out" -p "$preset" "${boot_cpus[@]}" -k "$base_kernel" -t "$limit" -- \
		sh -c "$stress -B -H -c -d $secs" || brc=$?
	[ "$brc" = 0 ] || echo "warning: the base reference run failed (exit $brc; 98 = a splat other than KCSAN): not counted; see ${RESULTS#"$TOP"/}/base/" >&2
fi
# Each KCSAN title's count, on the base too with -b, and whether it is the
# series', by the scope above.
if [ "$FLAVOR" = kcsan ]; then
	base_log=()
	[ "$base_ref" = 0 ] || base_log=(-b "$RESULTS/base/console.log")
	"$TOP/scripts/kcsan-titles.sh" "${base_log[@]}" "$RESULTS/console.log" >"$RESULTS/kcsan-titles" 2>/dev/null ||
		echo "warning: kcsan-titles.sh could not tabulate the KCSAN reports" >&2
fi
if [ "$fail" != 0 ]; then
	echo "error: the console, dmesg and output are in ${RESULTS#"$TOP"/}/" >&2
	exit 1
fi
results_commit
clean="console clean"
[ "$FLAVOR" != kcsan ] || clean="no KCSAN report at $kcsan_scope, $(grep -c 'BUG: KCSAN:' "$RESULTS/console.log" || true) elsewhere (${RESULTS#"$TOP"/}/kcsan-titles)"
echo "# stress passed: $FLAVOR kernel on $preset, $secs s of load, $toggles toggles ($all_on s all on), $cycles hotplug cycles, $fits fit and $bias bias decisions, $rt RT periods, $clean (counts: ${RESULTS#"$TOP"/}/counts)"
