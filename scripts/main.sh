#!/usr/bin/env bash
# `make`: from nothing to numbers. Fetch and import the base (cached), assemble
# build/linux, build the VM kernel, boot the default preset, print the guest
# topology and an interleaved A/B table. Results land in results/. HOST=1 runs
# the A/B on this machine's running kernel instead (scripts/lib/host.sh).
# --check checks the input only, and with HOST=1 this machine: make HOST=1
# runs it before it installs or builds anything.
#   [HOST=1] PRESET=zen3 REPS=$AB_REPS FEATURE=UTIL_FITS_CAPACITY,SELECT_BIAS_PREV WORKLOAD='hackbench ...' main.sh [--check]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/results.sh"
. "$TOP/scripts/lib/vm-run.sh"
. "$TOP/scripts/lib/host.sh"
PRESET=${PRESET:-zen3}
REPS=${REPS:-$AB_REPS}
# The series' headline: its two wakeup switches together against neither.
FEATURE=${FEATURE:-UTIL_FITS_CAPACITY,SELECT_BIAS_PREV}
# The original posting's hackbench (threads over pipes, 100-byte messages)
# at about its tasks per CPU: it ran 32 groups of 40 on 384 CPUs (3.3 a
# CPU); 8 groups of 20 are 2.5 a CPU on zen3's 64: make bench's both-g8.
# At 4 groups (1.25 a CPU) the cut is near what 12 runs resolve under TCG
# (docs/results/2026-12-06-wakeup-ladder-zen3).
WORKLOAD=${WORKLOAD:-hackbench -g 8 -f 10 -s 100 -l 500 --threads --pipe}

on=${FEATURE//,/+} off=NO_${FEATURE//,/+NO_}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
IFS=, read -ra feats <<<"$FEATURE"
# Bad input stops here, before anything is built or booted.
need_reps "$REPS"
if [ "${HOST:-0}" = 1 ]; then
	# This machine's running kernel: refused, with nothing changed,
	# without root, debugfs, the series' switches, FEATURE or perf.
	host_preflight "${feats[@]}"
else
	need_preset "$PRESET"
fi
[ "${1:-}" != --check ] || exit 0
if [ "${HOST:-0}" = 1 ]; then
	need_gnuplot || exit 1
	results_begin "$stamp-host-${FEATURE//,/+}"
	out=$RESULTS where=host
	mkdir -p "$out/host"
	host_topology "$out/host" >"$out/host/summary"
	"$TOP/bench/ab-run.sh" -f "$FEATURE" -n "$REPS" -w 1 -- $WORKLOAD >"$out/ab.raw"
else
	"$TOP/scripts/mktree.sh"
	need_tree_features "${feats[@]}"
	kernel=$("$TOP/scripts/build-kernel.sh")
	results_begin "$stamp-$PRESET-${FEATURE//,/+}"
	out=$RESULTS where=$PRESET
	# A pair of runs takes up to half a minute on zen3 under TCG; the
	# guest gets that for each pair, the warm-up's included, and the boot.
	VM_KEEP=$out/vm vm_run "$out/ab.raw" -p "$PRESET" -k "$kernel" -t "$((300 + 30 * (REPS + 1)))" -- \
		"$TOP/bench/ab-run.sh" -f "$FEATURE" -n "$REPS" -w 1 -- $WORKLOAD
fi
ab_meta "$out/ab.meta" "$FEATURE A/B" "$on" "$off" "" "$REPS" "$AB_HIGHER" "$WORKLOAD"

{
	if [ "$where" = host ]; then
		cat "$out/host/summary"
	else
		echo "Kernel:   $(git -C "$BUILD/linux" log -1 --format='%h %s') (on $(git -C "$BUILD/linux" log -1 --format=%s refs/sp/base))"
		echo "Topology: preset $PRESET, as checked inside the guest:"
		topology_summary "$out/vm/topology"
		echo "Emulated topology under QEMU TCG: compare A with B only; these are not absolute speeds."
	fi
	echo "One warm-up pair before the runs."
	echo
	"$TOP/bench/report.sh" -t "$where" "$out" ab
} | tee "$out/report.txt"
results_commit
note "results in ${RESULTS#$TOP/}/"
