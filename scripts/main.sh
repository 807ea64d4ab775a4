#!/usr/bin/env bash
# `make`: from nothing to numbers, as `make bench` with one A/B set given
# inline: set ab, FEATURE (a comma list) all on against all off around
# WORKLOAD. This checks the input, fetches and imports the base (cached),
# assembles build/linux, checks FEATURE against it and builds the VM
# kernel (make bench has make build it); then scripts/bench.sh, the one
# driver of both, boots PRESET (HOST=1: this machine's running kernel,
# scripts/lib/host.sh), runs the set (bench/series-ab.sh ab), prints the
# report and writes results/<time>-<preset>-<features>/. Its defaults (PRESET,
# REPS, the warm-up) are bench.sh's and bench/lib.sh's, printed in the
# report's head. --check checks the input only, and with HOST=1 this
# machine: make HOST=1 runs it before it installs or builds anything.
#   [HOST=1] PRESET=zen3 REPS=12 FEATURE=UTIL_FITS_CAPACITY,SELECT_BIAS_PREV WORKLOAD='hackbench ...' [SCHED_LAT=1] main.sh [--check]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# The series' headline: its two wakeup switches together against neither.
FEATURE=${FEATURE:-UTIL_FITS_CAPACITY,SELECT_BIAS_PREV}
# The original posting's hackbench (threads over pipes, 100-byte messages)
# at about its tasks per CPU: it ran 32 groups of 40 on 384 CPUs (3.3 a
# CPU); 8 groups of 20 are 2.5 a CPU on zen3's 64: make bench's both-g8.
# At 4 groups (1.25 a CPU) the cut is near what 12 runs resolve under TCG
# (docs/results/2026-12-06-wakeup-ladder-zen3).
# Unset, not empty: make WORKLOAD= is refused below, not the default.
WORKLOAD=${WORKLOAD-hackbench -g 8 -f 10 -s 100 -l 500 --threads --pipe}
# Bad input stops here or in bench.sh --check (a workload command not
# found: series-ab.sh's set ab), before anything is built or booted.
[[ $FEATURE =~ ^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$ ]] ||
	die "FEATURE=$FEATURE: want sched feature names, a comma list (e.g. FEATURE=UTIL_FITS_CAPACITY,SELECT_BIAS_PREV)"
[ -n "${WORKLOAD//[[:space:]]/}" ] ||
	die "WORKLOAD is empty: want a command to run on both sides (leave WORKLOAD unset for the default, hackbench -g 8 -f 10 -s 100 -l 500 --threads --pipe)"
# SETS of the environment (make bench's) are not make's. The wakeup
# latency (SCHED_LAT=1, make bench HOST=1's default) stays off unless
# asked for: make's table has the same rows in the guest and on a host.
export SETS=ab SP_INLINE_FEATURE=$FEATURE SP_INLINE_WORKLOAD=$WORKLOAD SCHED_LAT=${SCHED_LAT:-0}
bench=$TOP/scripts/bench.sh
# Host mode, and the check alone, build nothing: bench.sh does all.
if [ "${HOST:-0}" = 1 ] || [ "${1:-}" = --check ]; then
	exec "$bench" "$@"
fi
"$bench" --check
"$TOP/scripts/mktree.sh"
IFS=, read -ra feats <<<"$FEATURE"
need_tree_features "${feats[@]}"
BENCH_KERNEL=$("$TOP/scripts/build-kernel.sh")
export BENCH_KERNEL
exec "$bench"
