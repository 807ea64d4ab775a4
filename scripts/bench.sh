#!/usr/bin/env bash
# `make bench` and `make` (through scripts/main.sh): the one driver of the
# A/Bs. Boot PRESET and run A/B sets (bench/series-ab.sh: SETS of
# bench/sets, or make's set ab given inline by SP_INLINE_FEATURE and
# SP_INLINE_WORKLOAD) in the guest, then write their report on the host
# (bench/report.sh). The report goes to the terminal and to
# results/<time>-<preset>-bench/ (make's: <time>-<preset>-<features>/):
# report.txt (its head: the kernel, the topology, the guest's clock, the
# runs and warm-up with their defaults, and the machine as the runs found
# it, sets/machine);
# in sets/, per set SET.raw (every run), SET.meta, SET.csv (the table) and
# SET.png (every run plotted), with results.json (every table) and
# sweep-FAMILY.png (a family's sets against their count); vm/ with the
# guest's console, dmesg and topology. It is results/<...>.partial until
# the run completes.
# HOST=1 runs the sets on this machine's running kernel instead (a machine
# booted into the patched kernel, as root): results/<time>-host-bench/, with
# host/topology in place of vm/; refused, with nothing changed, without
# root, debugfs, the series' switches (and the inline set's) or perf
# (scripts/lib/host.sh).
#   [HOST=1] PRESET=zen3 REPS=12 [ICOUNT=off|SHIFT] SETS='fit bias ...' [SCHED_LAT=0|1] [HB_LOOPS=N] [PIPE_LOOPS=N] [LAT_SECS=N] [TBENCH_SECS=N] [SCHBENCH_SECS=N] [MSG_LOOPS=N] [STREAM_MIB=N] bench.sh [--check]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/results.sh"
. "$TOP/scripts/lib/report.sh"
. "$TOP/scripts/lib/vm-run.sh"
. "$TOP/scripts/lib/host.sh"
# The defaults, each set here, in bench/lib.sh (AB_REPS, AB_WARMUP) or in
# lib.sh (AB_ICOUNT_DEFAULT) and nowhere else, and printed in the report's
# head; the preset's in scripts/presets (@default, the target's shape).
PRESET_DEFAULT=$(preset_default default)
PRESET=${PRESET:-$PRESET_DEFAULT}
REPS=${REPS:-$AB_REPS}
read -ra sets <<<"${SETS:-}"
# The inline set, ab: its switches are checked on this machine in host
# mode. Alone (make's A/B), they name the results directory, and the
# guest gets make's time.
inline=() alone=
if [ -n "${SP_INLINE_FEATURE:-}" ] && [[ " ${sets[*]} " == *" ab "* ]]; then
	IFS=, read -ra inline <<<"$SP_INLINE_FEATURE"
	[ "${sets[*]}" != ab ] || alone=1
fi
# The loop counts series-ab.sh takes from its environment, and the inline
# set, passed to the guest.
envs=(env)
for v in HB_LOOPS PIPE_LOOPS LAT_SECS TBENCH_SECS SCHBENCH_SECS MSG_LOOPS STREAM_MIB SCHED_LAT IDLE_MAX_PCT \
	SP_INLINE_FEATURE SP_INLINE_WORKLOAD; do
	[ -z "${!v:-}" ] || envs+=("$v=${!v}")
done
# The wakeup latency of the hackbench and tbench sets (perf sched record
# around each run): on in host mode, off in the guest, where recording
# every switch under the emulator costs more than the runs.
[ "${HOST:-0}" != 1 ] || [ -n "${SCHED_LAT:-}" ] || envs+=(SCHED_LAT=1)
# The cache ledger (LEDGER=1, scripts/vm.sh): each run a window.
[ "${LEDGER:-0}" != 1 ] || envs+=(SP_LEDGER=1)
# Bad input stops here, before anything is booted: runs, preset and every
# set's name (without this machine's checks, which the guest makes).
need_reps "$REPS"
if [ "${HOST:-0}" = 1 ]; then
	# Every set is checked before the results directory is made; with
	# --check before make builds the tools, which are left out then.
	# The sets first: the preflight may mount debugfs, and a set refused
	# after it would leave it mounted.
	"$TOP/bench/series-ab.sh" "$([ "${1:-}" = --check ] && echo -c || echo -d)" "${sets[@]}" >/dev/null
	[ "${LEDGER:-0}" = 0 ] || die "LEDGER=1: the cache ledger models the emulator's caches; on hardware, count them (perf stat, perf c2c)"
	host_preflight "${inline[@]}"
else
	need_preset "$PRESET"
	need_icount "${ICOUNT:-$AB_ICOUNT_DEFAULT}"
	need_ledger
	# -N: a set sized to the machine (both-g2xllc) is sized in the guest.
	"$TOP/bench/series-ab.sh" -N "${sets[@]}" >/dev/null
fi
# --check: the input only (make bench runs it before building the kernel).
[ "${1:-}" != --check ] || exit 0
if [ "${HOST:-0}" != 1 ]; then
	# BENCH_KERNEL: another bzImage of the series (an earlier build, say;
	# make's, which main.sh has just built).
	kernel=${BENCH_KERNEL:-$BUILD/kbuild-vm/arch/x86/boot/bzImage}
	[ -f "$kernel" ] || die "no kernel at $kernel; run 'make kernel' first"
fi
# The plots are drawn after the runs: a missing gnuplot must stop the run
# before they start, not leave hours of runs unplotted.
need_gnuplot || exit 1
tag=bench
[ -z "$alone" ] || tag=${SP_INLINE_FEATURE//,/+}
rc=0
if [ "${HOST:-0}" = 1 ]; then
	where=host
	results_begin "$(date -u +%Y%m%dT%H%M%SZ)-host-$tag"
	mkdir "$RESULTS/sets"
	host_topology "$RESULTS/host"
	report_head host | tee "$RESULTS/report.txt"
	"${envs[@]}" SP_OUT="$RESULTS/sets" SP_REPORT=0 "$TOP/bench/series-ab.sh" -n "$REPS" "${sets[@]}" >"$RESULTS/run.out" || rc=$?
else
	where=$PRESET
	# The guest's time (host seconds): the boot, and up to half a minute for
	# each pair of make's A/B on zen3 under TCG, the warm-up's included, or
	# a minute and a half with the ledger (a g8 pair took 70 s with it on
	# icount shift 0: 2026-12-07-calibration-zen3, hb-ledger); for the
	# sets, 3000 s.
	timeout=3000
	pair_s=30
	[ "${LEDGER:-0}" = 0 ] || pair_s=90
	[ -z "$alone" ] || timeout=$((300 + pair_s * (REPS + AB_WARMUP)))
	results_begin "$(date -u +%Y%m%dT%H%M%SZ)-$PRESET-$tag"
	mkdir "$RESULTS/sets"
	VM_ICOUNT_DEFAULT=$AB_ICOUNT_DEFAULT VM_KEEP=$RESULTS/vm vm_run "$RESULTS/guest.out" -p "$PRESET" -k "$kernel" -t "${BENCH_TIMEOUT:-$timeout}" \
		-w "$RESULTS/sets" -- "${envs[@]}" SP_OUT="$RESULTS/sets" SP_REPORT=0 "$TOP/bench/series-ab.sh" -n "$REPS" "${sets[@]}" || rc=$?
	report_head vm "$kernel" "$PRESET_DEFAULT" | tee "$RESULTS/report.txt"
fi
# The sets that completed are reported even when a later one failed or the
# guest timed out; the directory then stays .partial.
done_sets=()
# The machine as the runs found it: command line, SMT, NUMA, idle or not.
report_machine | tee -a "$RESULTS/report.txt"
[ ! -s "$RESULTS/sets/done" ] || mapfile -t done_sets <"$RESULTS/sets/done"
# The clock the runs were timed by, in each set's meta for results.json:
# the machine's own in host mode, else the guest's (vm.sh).
clock=hardware
[ "${HOST:-0}" = 1 ] || { clock=$(cat "$RESULTS/vm/clock" 2>/dev/null) && clock=${clock%%:*}; } || clock=unknown
for set in "${done_sets[@]}"; do
	echo "clock=$clock" >>"$RESULTS/sets/$set.meta"
done
# The cache ledger's rows: each measured run's window (vm/ledger.txt,
# written by QEMU's plugin) joined to its side by the label the guest
# gave it (SET.ledger), as more "SIDE METRIC VALUE" lines of SET.raw.
for set in "${done_sets[@]}"; do
	[ -f "$RESULTS/sets/$set.ledger" ] || continue
	[ -s "$RESULTS/vm/ledger.txt" ] || { rc=1; echo "error: $set: the ledger wrote no window (vm/ledger.txt)" >&2; continue; }
	awk -f "$TOP/bench/ledger.awk" "$RESULTS/vm/ledger.txt" "$RESULTS/sets/$set.ledger" >"$RESULTS/sets/$set.ledger-rows" &&
		cat "$RESULTS/sets/$set.ledger-rows" >>"$RESULTS/sets/$set.raw" && rm "$RESULTS/sets/$set.ledger-rows" ||
		{ rc=1; echo "error: $set: its runs and the ledger's windows do not join (above)" >&2; }
done
[ ${#done_sets[@]} = 0 ] ||
	"$TOP/bench/report.sh" -t "$where" "$RESULTS/sets" "${done_sets[@]}" | tee -a "$RESULTS/report.txt"
[ "$rc" = 0 ] || die "the runs failed (exit $rc) after ${#done_sets[@]} complete set(s), reported above; all is in ${RESULTS#"$TOP"/}/"
results_commit
note "results in ${RESULTS#"$TOP"/}/"
