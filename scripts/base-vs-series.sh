#!/usr/bin/env bash
# Base kernel against the patched kernel, every feature at its default: the
# same workload in alternating boots (base, series, base, series, ...), REPS
# runs per boot after AB_WARMUP warm-up pairs (bench/lib.sh), then one
# table (A = series, B = base).
# With the defaults untouched the two should not differ.
#   PRESET=2s4llc BOOTS=2 REPS=5 WORKLOAD='hackbench ...' base-vs-series.sh [OUTDIR]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/kbuild.sh"
. "$TOP/scripts/lib/results.sh"
. "$TOP/scripts/lib/report.sh"
. "$TOP/scripts/lib/vm-run.sh"
# The defaults, printed in the report's head; the preset's in
# scripts/presets (@small, a shape quick to boot).
PRESET_DEFAULT=$(preset_default small) BOOTS_DEFAULT=2 REPS_DEFAULT=5
PRESET=${PRESET:-$PRESET_DEFAULT}
BOOTS=${BOOTS:-$BOOTS_DEFAULT}
REPS=${REPS:-$REPS_DEFAULT}
WORKLOAD=${WORKLOAD:-hackbench -g 2 -f 10 -l 200 --threads --pipe}
if [ $# -gt 0 ]; then
	out=$1
	mkdir -p "$out"
else
	results_begin "$(date -u +%Y%m%dT%H%M%SZ)-$PRESET-base-vs-series"
	out=$RESULTS
fi
series=$BUILD/kbuild-vm/arch/x86/boot/bzImage
[ -f "$series" ] || series=$("$TOP/scripts/build-kernel.sh")
base=$(base_kernel)
[ -x "$BUILD/bin/stats" ] || make -s -C "$TOP" tools
: >"$out/ab.raw"
for ((b = 0; b < BOOTS; b++)); do
	for side in B A; do
		k=$base
		[ "$side" = A ] && k=$series
		# vm_run, not vm.sh in the foreground: a signal to this script
		# alone then stops the guest too.
		vm_run "$out/raw.$b$side" -p "$PRESET" -k "$k" -- \
			"$TOP/bench/ab-run.sh" -s "$side" -n "$REPS" -w "$AB_WARMUP" -- $WORKLOAD
		cat "$out/raw.$b$side" >>"$out/ab.raw"
		rm "$out/raw.$b$side"
	done
done
ab_meta "$out/ab.meta" "base against series, defaults untouched" series base "" "$((BOOTS * REPS))" "$AB_HIGHER" "$WORKLOAD"
{
	report_head kernels "$series" "$PRESET_DEFAULT" "$BOOTS_DEFAULT" "$REPS_DEFAULT"
	"$TOP/bench/report.sh" -t "$PRESET" "$out" ab
} | tee "$out/report.txt"
if [ $# -eq 0 ]; then
	results_commit
	note "results in ${RESULTS#$TOP/}/"
fi
