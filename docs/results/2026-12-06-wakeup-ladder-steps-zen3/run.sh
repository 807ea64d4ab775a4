#!/usr/bin/env bash
# The ladder's steps that need a kernel of their own: SIS_LIMIT_STACKING's
# narrowings added one at a time (limit-core, limit-core-near,
# limit-core-near-queue: throwaway patches on top of build/linux, each
# giving the switch part of its rule) and the control (the fit found,
# then the base's full idle search paid and its answer thrown away).
# Each kernel boots PRESET once for its sets (make bench with
# BENCH_KERNEL); the series' own kernel runs both-g4 and limit-g4 beside
# them. Results go to PART/ under this directory, one per kernel.
#   docs/results/2026-12-06-wakeup-ladder-steps-zen3/run.sh [PRESET]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../../scripts/lib.sh"
. "$TOP/scripts/lib/mutant.sh"
preset=${1:-zen3}
mutant_check
cleanup_on_exit 'git -C "$BUILD/linux" checkout -q -- .'
declare -A kernel=([series]=$BUILD/kbuild-vm/arch/x86/boot/bzImage)
for m in limit-core limit-core-near limit-core-near-queue control; do
	kernel[$m]=$(mutant_build "$here/$m.patch")
done
run() { # PART SET...
	local part=$1 d
	shift
	BENCH_KERNEL=${kernel[$part]} PRESET=$preset REPS=12 SETS="$*" "$TOP/scripts/bench.sh"
	d=$(ls -d "$TOP"/results/*-"$preset"-bench | tail -n 1)
	rm -rf "${here:?}/$part"
	mkdir "$here/$part"
	cp "$d/report.txt" "$d/sets/"*.{raw,meta,csv,png} "$d/sets/results.json" "$d/vm/topology" "$here/$part/"
}
run series both-g4 limit-g4
run limit-core limit-g4
run limit-core-near limit-g4
run limit-core-near-queue limit-g4
run control both-g4
