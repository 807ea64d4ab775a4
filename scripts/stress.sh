#!/usr/bin/env bash
# `make stress`: the patched kernel under load while the series' switches,
# sis_small_llc, sis_scan, CPU hotplug, affinity and cpuset partitions churn
# under it (stress/sp-stress.c), in one boot.
#
#   stress.sh [-p PRESET] [-d SECONDS] [-k] [-t MIN_TOGGLES] [-m MIN_HOTPLUG] [-b]
#
#   -p  topology preset (default 2s4llc)
#   -d  seconds of load (default 2400)
#   -k  also run the series' kselftests (run_kselftest.sh) before the load
#   -t  switch toggles the run must reach (default 1000)
#   -m  hotplug cycles the run must reach (default 100)
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
# FLAVOR=debug (the default here) boots the debug kernel: lockdep with
# PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT, KASAN, hung-task and
# soft-lockup detectors, DEBUG_LIST; FLAVOR=kcsan the same detectors with
# KCSAN in place of lockdep and KASAN. The run passes only if the KUnit suite
# passed at boot, the kselftests (-k) and sp-stress exit 0, at least
# MIN_TOGGLES switch flips and MIN_HOTPLUG hotplug cycles happened, and the console
# has no splat (vm.sh exits 98 on any BUG, WARNING, Oops, lockdep, KASAN, KCSAN or
# RCU stall report, or hung task; on the KCSAN kernel, where fair.c and debug.c
# are instrumented, a KCSAN report counts only if one of its access sites is a
# line the series adds or changes: scripts/series-lines.sh, placed with
# faddr2line in the kcsan build's vmlinux, which carries line info
# (console-check.sh KCSAN_LINES); without line info, if it is in a function the
# series adds or changes, base races inside such functions included
# (KCSAN_SCOPE). sp-stress itself fails if the features file or sis_small_llc
# do not end as they started or a CPU stays offline.
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

preset=2s4llc secs=2400 kself=0 min_toggles=1000 min_hotplug=100 base_ref=0
while getopts "p:d:kt:m:b" o; do
	case $o in
	p) preset=$OPTARG ;;
	d) secs=$OPTARG ;;
	k) kself=1 ;;
	t) min_toggles=$OPTARG ;;
	m) min_hotplug=$OPTARG ;;
	b) base_ref=1 ;;
	*) echo "usage: stress.sh [-p PRESET] [-d SECONDS] [-k] [-t MIN_TOGGLES] [-m MIN_HOTPLUG] [-b]" >&2; exit 2 ;;
	esac
done
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "-d $secs: give the load time in whole seconds"
[[ $min_hotplug =~ ^[0-9]+$ ]] || die "-m $min_hotplug: give a number of hotplug cycles"
[[ $min_toggles =~ ^[0-9]+$ ]] || die "-t $min_toggles: give a number of switch toggles"
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
guest="$stress -H -c -d $secs"
if [ "$kself" = 1 ]; then
	selftest=$("$TOP/scripts/build-selftests.sh")
	guest="$selftest/run_kselftest.sh && $guest"
fi

# The run's console, dmesg and output go to results/<time>-<preset>-stress-<flavor>
# (results/...partial when the run fails or is stopped: a WARNING's call
# trace, a lockdep report, is read there).
results_begin "$(date -u +%Y%m%dT%H%M%SZ)-$preset-stress-$FLAVOR"
# The guest's limit: the load plus 15 min for the boot, KUnit and the
# kselftests on the debug kernel under TCG, twice what they take.
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
VM_KEEP=$RESULTS vm_run -t "$RESULTS/out" -p "$preset" -k "$kernel" -t $((secs + 900)) -- \
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
count() { sed -n "s/^# $1 \([0-9]*\)$/\1/p" "$RESULTS/out" | tail -n 1; }
toggles=$(count 'switch toggles')
cycles=$(count 'hotplug cycles')
if [ "${toggles:-0}" -lt "$min_toggles" ]; then
	echo "error: ${toggles:-no} switch toggles, want at least $min_toggles" >&2
	fail=1
fi
if [ "${cycles:-0}" -lt "$min_hotplug" ]; then
	echo "error: ${cycles:-no} hotplug cycles, want at least $min_hotplug" >&2
	fail=1
fi
if [ "$base_ref" = 1 ]; then
	note "the base reference: the same load on the base kernel, $FLAVOR, for $secs s"
	mkdir -p "$RESULTS/base"
	# An empty scope: every KCSAN report on the base is listed, none fails.
	: >"$RESULTS/base/kcsan-scope"
	brc=0
	KCSAN_SCOPE=$RESULTS/base/kcsan-scope KCSAN_LINES='' VM_KEEP=$RESULTS/base \
		vm_run -t "$RESULTS/base/out" -p "$preset" -k "$base_kernel" -t $((secs + 900)) -- \
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
echo "# stress passed: $FLAVOR kernel on $preset, $secs s of load, $toggles toggles, $cycles hotplug cycles, $clean"
