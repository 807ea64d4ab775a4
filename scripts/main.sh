#!/usr/bin/env bash
# `make`: from nothing to numbers. Fetch and import the base (cached), assemble
# build/linux, build the VM kernel, boot the default preset, print the guest
# topology and an interleaved A/B table. Results land in results/.
#   PRESET=2s4llc REPS=5 FEATURE=SIS_UTIL WORKLOAD='hackbench ...'
set -euo pipefail
. "$(dirname "$0")/lib.sh"
PRESET=${PRESET:-2s4llc}
REPS=${REPS:-5}
FEATURE=${FEATURE:-SIS_UTIL}
WORKLOAD=${WORKLOAD:-hackbench -g 4 -f 10 -l 100 --threads --pipe}

"$TOP/scripts/mktree.sh"
kernel=$("$TOP/scripts/build-kernel.sh")
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$TOP/results/$stamp-$PRESET-$FEATURE
mkdir -p "$out"
VM_KEEP=$out/vm "$TOP/scripts/vm.sh" -p "$PRESET" -k "$kernel" -- \
	"$TOP/bench/ab-run.sh" -f "$FEATURE" -n "$REPS" -w 1 -- $WORKLOAD >"$out/raw"

{
	echo "Kernel:   $(git -C "$BUILD/linux" log -1 --format='%h %s') (on $(git -C "$BUILD/linux" log -1 --format=%s refs/sp/base))"
	echo "Topology: preset $PRESET, as checked inside the guest:"
	awk '/^cpus/{print "  CPUs     " $2}
		/^node/{print "  " $1 "    " $2}
		/^llc/{l = l " " $2} END{print "  LLCs    " l}
		/^domains/{$1 = ""; print "  domains " $0}' "$out/vm/topology"
	echo "Workload: $WORKLOAD"
	echo "A/B:      $FEATURE (A) vs NO_$FEATURE (B), $REPS interleaved runs per side after 1 warm-up pair"
	echo "Emulated topology under QEMU TCG: compare A with B only; these are not absolute speeds."
	echo
	"$BUILD/bin/stats" -a "$FEATURE" -b "NO_$FEATURE" -m "$REPS" -c "$out/table.csv" <"$out/raw"
} | tee "$out/report.txt"
note "results in ${out#$TOP/}/"
