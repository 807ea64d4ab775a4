#!/usr/bin/env bash
# `make bench`: boot PRESET and run the changelog A/B sets (bench/series-ab.sh).
# The report goes to the terminal and to results/<time>-<preset>-bench/
# (report.txt; per set, in sets/, SET.raw with every run, SET.csv with the
# table and SET.png with every run plotted; vm/ with the guest's console,
# dmesg and topology), which is results/<...>.partial until the run
# completes.
#   PRESET=zen3 REPS=12 SETS='fit bias ...' [HB_LOOPS=N] [PIPE_LOOPS=N] [LAT_SECS=N] [TBENCH_SECS=N] [MSG_LOOPS=N] [STREAM_MIB=N] bench.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
PRESET=${PRESET:-zen3}
REPS=${REPS:-12}
read -ra sets <<<"${SETS:-}"
# The loop counts series-ab.sh takes from its environment, passed to the guest.
envs=(env)
for v in HB_LOOPS PIPE_LOOPS LAT_SECS TBENCH_SECS MSG_LOOPS STREAM_MIB; do
	[ -z "${!v:-}" ] || envs+=("$v=${!v}")
done
# BENCH_KERNEL: another bzImage of the series (an earlier build, say).
kernel=${BENCH_KERNEL:-$BUILD/kbuild-vm/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no kernel at $kernel; run 'make kernel' first"
# The plots are drawn after the guest is done: a missing gnuplot must stop
# the run before the boot, not leave hours of runs unplotted.
command -v "${GNUPLOT:-gnuplot}" >/dev/null || die "gnuplot (${GNUPLOT:-gnuplot}) not found; run 'make deps' (installs gnuplot-nox)"
results_begin "$(date -u +%Y%m%dT%H%M%SZ)-$PRESET-bench"
mkdir "$RESULTS/sets"
VM_KEEP=$RESULTS/vm vm_run -t "$RESULTS/report.txt" -p "$PRESET" -k "$kernel" -t "${BENCH_TIMEOUT:-3000}" \
	-w "$RESULTS/sets" -- "${envs[@]}" SP_OUT="$RESULTS/sets" "$TOP/bench/series-ab.sh" -n "$REPS" "${sets[@]}"
for raw in "$RESULTS"/sets/*.raw; do
	[ -e "$raw" ] || continue
	{ read -r title; read -r a; read -r b; } <"${raw%.raw}.labels"
	"$TOP/bench/plot.sh" "$raw" "${raw%.raw}.png" "$PRESET: $title" "$a" "$b"
done
results_commit
note "results in ${RESULTS#$TOP/}/"
