#!/usr/bin/env bash
# `make`: from nothing to numbers. Fetch and import the base (cached), assemble
# build/linux, build the VM kernel, boot the default preset, print the guest
# topology and an interleaved A/B table. Results land in results/.
#   PRESET=zen3 REPS=5 FEATURE=UTIL_FITS_CAPACITY,SELECT_BIAS_PREV WORKLOAD='hackbench ...'
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/results.sh"
. "$TOP/scripts/lib/vm-run.sh"
PRESET=${PRESET:-zen3}
REPS=${REPS:-5}
# The series' headline: its two wakeup switches together against neither.
FEATURE=${FEATURE:-UTIL_FITS_CAPACITY,SELECT_BIAS_PREV}
# The original posting's hackbench (groups of 20, 100-byte messages), with
# 80 tasks on zen3's 64 CPUs.
WORKLOAD=${WORKLOAD:-hackbench -g 4 -f 10 -s 100 -l 1000 --threads --pipe}

"$TOP/scripts/mktree.sh"
kernel=$("$TOP/scripts/build-kernel.sh")
on=${FEATURE//,/+} off=NO_${FEATURE//,/+NO_}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results_begin "$stamp-$PRESET-${FEATURE//,/+}"
out=$RESULTS
VM_KEEP=$out/vm vm_run "$out/ab.raw" -p "$PRESET" -k "$kernel" -- \
	"$TOP/bench/ab-run.sh" -f "$FEATURE" -n "$REPS" -w 1 -- $WORKLOAD
ab_meta "$out/ab.meta" "$FEATURE A/B" "$on" "$off" "" "$REPS" "$AB_HIGHER" "$WORKLOAD"

{
	echo "Kernel:   $(git -C "$BUILD/linux" log -1 --format='%h %s') (on $(git -C "$BUILD/linux" log -1 --format=%s refs/sp/base))"
	echo "Topology: preset $PRESET, as checked inside the guest:"
	awk '/^cpus/{print "  CPUs     " $2}
		/^node/{print "  " $1 "    " $2}
		/^llc/{l = l " " $2} END{print "  LLCs    " l}
		/^domains/{$1 = ""; print "  domains " $0}' "$out/vm/topology"
	echo "Emulated topology under QEMU TCG: compare A with B only; these are not absolute speeds."
	echo "One warm-up pair before the runs."
	echo
	"$TOP/bench/report.sh" -t "$PRESET" "$out" ab
} | tee "$out/report.txt"
results_commit
note "results in ${RESULTS#$TOP/}/"
