#!/usr/bin/env bash
# Interleaved A/B of one sched feature around a workload, on the running kernel
# (in the VM, or on a host booted into the patched kernel: run it with sudo).
#
#   ab-run.sh -f FEATURE[,FEATURE...] [-n REPS] [-w WARMUP] [-l COMM,...] -- WORKLOAD [ARG...]
#   ab-run.sh -s SIDE [-n REPS] [-w WARMUP] [-l COMM,...] -- WORKLOAD [ARG...]
#
# The second form touches no feature and labels every run SIDE (A or B): for
# comparing two kernels, one boot each (scripts/base-vs-series.sh).
#
# Side A runs with every FEATURE set, side B with every NO_FEATURE (a list
# compares the switches together against none of them), alternating ABAB... so
# that drift hits both sides alike. The first WARMUP pairs (default
# AB_WARMUP of lib.sh) are discarded.
# Prints one line per run and metric: "SIDE METRIC VALUE", for bench/stats:
# perf stat's migrations, context switches and CPUs used, the wait per
# timeslice of every task (wait_us, from /proc/schedstat), the workload's
# own time (hackbench, perf bench), any "sp-metric: NAME VALUE" line it
# prints (bench/latency.sh, bench/tbench.sh), and, on a kernel of the
# series and with -f, the wakeups each placement switch decided in the run
# (wake_NAME, one per line of sched/sis_wake, counted with schedstats on
# for both sides), and where the tasks went (bench/where.awk: migrations to an SMT
# sibling, in the LLC, in the node, to another node, and the share of
# wakeups on the CPU last used, from tracefs' sched events; SP_WHERE=0
# leaves them out). Where turbostat runs (root, x86 MSRs; SP_TURBOSTAT=0
# leaves it out), each run's average frequency, busy share and C-state
# residency over all CPUs: turbo_avg_mhz, turbo_bzy_mhz, turbo_busy_pct,
# turbo_cN_pct (turbostat --Summary around the run). With -l, the
# wakeup-to-run delay of the tasks named COMM, wakelat_p50_us and
# wakelat_p99_us, from perf sched record around the run (bench/wakelat.sh);
# refused before the first run where perf sched record fails. The
# features file, kernel.sched_schedstats and the tracing state are
# restored on exit, whatever happens. SP_LEDGER_MAP=FILE: each run is a
# window of the cache ledger (below).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
feat="" side="" reps=5 warm=$AB_WARMUP lat=""
while getopts "f:s:n:w:l:" o; do
	case $o in
	f) feat=$OPTARG ;;
	l) lat=$OPTARG ;;
	s) side=$OPTARG ;;
	n) reps=$OPTARG ;;
	w) warm=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$feat$side" ] && [ $# -gt 0 ] || { echo "usage: ab-run.sh -f FEATURE|-s SIDE [-n REPS] [-w WARMUP] [-l COMM,...] -- WORKLOAD..." >&2; exit 2; }
case $side in "" | A | B) ;; *) echo "error: -s takes A or B, not '$side'" >&2; exit 2 ;; esac
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "error: -n $reps: want a positive whole number of runs per side" >&2; exit 2; }
[[ $warm =~ ^[0-9]+$ ]] || { echo "error: -w $warm: want a whole number of warm-up pairs" >&2; exit 2; }
[ -z "$lat" ] || [[ $lat =~ ^[^,[:space:]]+(,[^,[:space:]]+)*$ ]] ||
	{ echo "error: -l '$lat': want the workload's task names, a comma list (hackbench or tbench,tbench_srv)" >&2; exit 2; }

F=$SCHED_FEATURES
IFS=, read -ra feats <<<"$feat"
features_preflight ab-run.sh "sudo ab-run.sh ..." "${feats[@]}" || exit 1
save_features
command -v perf >/dev/null || { echo "error: perf not found; install linux-perf (make deps)" >&2; exit 1; }

# run_delay (ns) and pcount (timeslices) summed over the CPUs, from
# /proc/schedstat (version 15 and up: fields 8 and 9 after the CPU name);
# empty where the kernel has no schedstat.
sched_wait() {
	awk '$1 ~ /^cpu[0-9]+$/ { d += $9; n += $10 } END { if (n) print d, n }' /proc/schedstat 2>/dev/null || true
}
# The switches' decision counts: sis_wake counts while schedstats are on,
# so they are on for every run of both sides (of both kernels with -s,
# so that both pay for them) and put back after. The counts are printed
# with -f only: with -s one kernel may have no sis_wake, and a metric of
# one side is no comparison.
SIS_WAKE=${SP_DEBUGFS:-/sys/kernel/debug}/sched/sis_wake
SCHEDSTATS=${SP_PROCSYS:-/proc/sys}/kernel/sched_schedstats
schedstats0= counts=
if [ -w "$SCHEDSTATS" ]; then
	schedstats0=$(cat "$SCHEDSTATS")
	echo 1 >"$SCHEDSTATS"
	[ -n "$side" ] || [ ! -w "$SIS_WAKE" ] || counts=1
fi
# Where the tasks went: the scheduler's migrate, waking and wakeup events,
# system-wide (the guest runs nothing else; where.awk leaves kernel
# threads out), classed by this machine's topology. Skipped without
# tracefs or its sched events.
T=${SP_TRACEFS:-/sys/kernel/tracing}
[ -e "$T/trace" ] || [ -n "${SP_TRACEFS:-}" ] || mount -t tracefs none "$T" 2>/dev/null || true
WHERE_EVENTS="sched_migrate_task sched_waking sched_wakeup"
where=
if [ "${SP_WHERE:-1}" = 1 ] && [ -w "$T/trace" ] && [ -d "$T/events/sched/sched_migrate_task" ]; then
	where=$(mktemp -d)
	"$(dirname "$0")/topology.sh" >"$where/topology"
	cat "$T/tracing_on" >"$where/tracing_on"
	for e in $WHERE_EVENTS; do cat "$T/events/sched/$e/enable" >"$where/$e"; done
fi
where_stop() { # the events off, then as they were before the A/B
	local e
	echo 0 >"$T/tracing_on"
	for e in $WHERE_EVENTS; do echo 0 >"$T/events/sched/$e/enable"; done
}
where_restore() {
	local e
	for e in $WHERE_EVENTS; do cat "$where/$e" >"$T/events/sched/$e/enable"; done
	: >"$T/trace"
	cat "$where/tracing_on" >"$T/tracing_on"
	rm -rf "$where"
}
tmp=$(mktemp)
cleanup_on_exit 'restore_features; [ -z "$schedstats0" ] || echo "$schedstats0" >"$SCHEDSTATS"; [ -z "$where" ] || { where_stop; where_restore; }; rm -f "$tmp" "$tmp".*'
# turbostat around each run, where it runs: a summary of all CPUs.
TURBO_SHOW=Avg_MHz,Busy%,Bzy_MHz,CPU%c1,CPU%c6
turbo=()
if [ "${SP_TURBOSTAT:-1}" = 1 ] && command -v turbostat >/dev/null; then
	if turbostat --quiet --Summary --show "$TURBO_SHOW" --out "$tmp.turbo" -- true >/dev/null 2>&1 &&
		grep -q 'Busy%' "$tmp.turbo"; then
		turbo=(turbostat --quiet --Summary --show "$TURBO_SHOW" --out "$tmp.turbo" --)
	else
		echo "ab-run: turbostat does not run here (not root, or no MSRs): no turbo_* metrics" >&2
	fi
fi
# The cache ledger (SP_LEDGER_MAP=FILE, from series-ab.sh under LEDGER=1):
# sp-mark opens a window of the ledger before perf stat and closes it
# after, labelled with the next number of ledger.next beside FILE (one
# count for the boot: labels must not repeat); a measured run's "LABEL
# SIDE" goes to FILE, which bench.sh joins on the host to the ledger's
# window lines (bench/ledger.awk).
mark=
if [ -n "${SP_LEDGER_MAP:-}" ]; then
	mark=${SP_MARK:-$(dirname "$0")/../build/bin/sp-mark}
	[ -x "$mark" ] || { echo "error: SP_LEDGER_MAP: no $mark; run 'make ledger'" >&2; exit 1; }
	LEDGER_NEXT=$(dirname "$SP_LEDGER_MAP")/ledger.next
fi
# perf sched record around each run, for -l.
sched=()
if [ -n "$lat" ]; then
	perf sched record -o "$tmp.sched" -- true >"$tmp.out" 2>&1 || {
		echo "error: -l: perf sched record fails here ($(head -c 300 "$tmp.out")): run as root, with the sched tracepoints, or leave out -l (SCHED_LAT=0)" >&2
		exit 1
	}
	sched=(perf sched record -o "$tmp.sched" --)
fi
one() { # side [prefix]: prefix "" sets the features, "NO_" clears them
	local f
	if [ $# -gt 1 ]; then
		for f in "${feats[@]}"; do feature_write "$2${f#NO_}"; done
	fi
	local out w0 w1 label=
	[ -z "$counts" ] || echo 0 >"$SIS_WAKE"
	if [ -n "$where" ]; then
		: >"$T/trace"
		for f in $WHERE_EVENTS; do echo 1 >"$T/events/sched/$f/enable"; done
		echo 1 >"$T/tracing_on"
	fi
	w0=$(sched_wait)
	# A perf that writes no counters must not leave the last run's in
	# place: the file is emptied first and its counters required.
	: >"$tmp"
	if [ -n "$mark" ]; then
		label=$(cat "$LEDGER_NEXT" 2>/dev/null || echo 0)
		echo $((label + 1)) >"$LEDGER_NEXT"
		"$mark" start "$label" || { echo "error: $mark start $label failed (labels run 0 to 16383 in a boot)" >&2; exit 1; }
	fi
	out=$("${sched[@]}" "${turbo[@]}" perf stat -x, -o "$tmp" -e cpu-migrations,context-switches,task-clock -- "${cmd[@]}" 2>&1) ||
		{ echo "error: workload failed: $out" >&2; exit 1; }
	[ -z "$label" ] || "$mark" end "$label"
	grep -q ',cpu-migrations,' "$tmp" ||
		{ echo "error: perf stat counted nothing ($(command -v perf)): $(head -c 300 "$tmp") $out" >&2; exit 1; }
	w1=$(sched_wait)
	[ -z "$where" ] || where_stop
	[ "$i" -lt "$warm" ] && { rm -f "$tmp.sched"; return; }
	[ -z "$label" ] || echo "$label $1" >>"$SP_LEDGER_MAP"
	# turbostat's summary: a header line naming the columns, then theirs.
	[ ${#turbo[@]} = 0 ] || awk -v s="$1" '
		h { for (i = 1; i <= NF; i++) if (name[i] != "") print s, name[i], $i; exit }
		/Busy%/ {
			for (i = 1; i <= NF; i++) {
				c = $i
				if (c == "Avg_MHz") name[i] = "turbo_avg_mhz"
				else if (c == "Bzy_MHz") name[i] = "turbo_bzy_mhz"
				else if (c == "Busy%") name[i] = "turbo_busy_pct"
				else if (c ~ /^CPU%c[0-9]+$/) { sub(/^CPU%c/, "", c); name[i] = "turbo_c" c "_pct" }
			}
			h = 1
		}' "$tmp.turbo"
	if [ ${#sched[@]} -gt 0 ]; then
		perf sched timehist -i "$tmp.sched" 2>/dev/null | "$(dirname "$0")/wakelat.sh" "$1" "$lat"
		rm -f "$tmp.sched"
	fi
	[ -z "$where" ] || awk -v side="$1" -f "$(dirname "$0")/where.awk" "$where/topology" "$T/trace"
	[ -z "$counts" ] || awk -v s="$1" '/^[a-z_]+ [0-9]+$/ { print s, "wake_" $1, $2 }' "$SIS_WAKE"
	# The wait of a task runnable but not running, per timeslice: how
	# stacking shows, where migrations show how it is avoided.
	[ -z "$w0" ] || [ -z "$w1" ] || awk -v s="$1" -v a="$w0" -v b="$w1" 'BEGIN {
		split(a, x); split(b, y)
		if (y[2] > x[2]) printf "%s wait_us %.3f\n", s, (y[1] - x[1]) / (y[2] - x[2]) / 1000 }'
	awk -F, -v s="$1" '$3=="cpu-migrations"{print s, "migrations", $1}
		$3=="context-switches"{print s, "ctxsw", $1}
		$3=="task-clock"{print s, "cpus_utilised", $6}' "$tmp"
	# hackbench and perf bench print their own elapsed time; a workload of
	# ours (bench/latency.sh, tbench.sh) prints "sp-metric: NAME VALUE" lines.
	echo "$out" | awk -v s="$1" '/^Time:/{print s, "time_s", $2}
		/Total time:/{print s, "time_s", $3}
		/^sp-metric: [a-z0-9_]+ [-0-9.]+$/{print s, $2, $3}'
}
cmd=("$@")
# Progress on stderr: a long sweep says where it is and how long it has left.
total=$((warm + reps)) start=$SECONDS unit=pairs
[ -z "$side" ] || unit=runs
for ((i = 0; i < total; i++)); do
	if [ -n "$side" ]; then
		one "$side"
	else
		one A ""
		one B NO_
	fi
	el=$((SECONDS - start))
	echo "ab-run: $((i + 1))/$total $unit ($warm warm-up), ${el} s, about $((el * (total - i - 1) / (i + 1))) s left" >&2
done
