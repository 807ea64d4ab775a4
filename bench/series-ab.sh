#!/usr/bin/env bash
# The A/B sets behind the numbers in the series' changelogs. Runs on the
# patched kernel (in the VM via `make bench`, or on a host as root) and prints
# one stats table per set. Each set is an interleaved ab-run.sh; a set that
# needs another feature on sets it first and the features file is restored.
#
#   series-ab.sh [-n REPS] [SET...]
#
# Sets: both-gN (UTIL_FITS_CAPACITY and SELECT_BIAS_PREV together against
# neither: hackbench of N groups of 20 with 100-byte messages, the original
# posting's load, leaving CPUs idle for small N), both-pipe (the same, 1:1),
# lat-gN (the same switches: cyclictest's wakeup latency, p50, p99 and max,
# next to that hackbench of N groups; bench/latency.sh, LAT_SECS a run),
# tbench-N (the same switches: tbench over loopback with N clients, the 1:1
# load the original RFC lost on; bench/tbench.sh, TBENCH_SECS a run),
# fit-tbench-N and bias-tbench-N (that tbench for each switch alone),
# both-sock-gN, both-proc-gN and both-proc-sock-gN (that hackbench over
# sockets instead of pipes, with processes instead of threads, and both:
# the four variants LKP and mmtests run), fit-gN and pair-gN (that hackbench
# for UTIL_FITS_CAPACITY alone, and for SELECT_BIAS_PREV on top of it),
# sis-gN (that hackbench for SIS_SMALL_LLC),
# fit bias pair (hackbench over the machine), fit-llc bias-llc pair-llc
# (hackbench confined to the LLC of CPU 0, two tasks per CPU), pipe pipe-fit
# pipe-pair (perf bench sched pipe, 1:1), stream-N (NUMA_IMB_PINNED: STREAM's
# triad with N passes, pinned to one CPU in half the LLCs of each node, the
# original report's pinning; build/bin/sp-stream, STREAM_MIB MiB arrays),
# boost (perf bench sched messaging,
# MSG_LOOPS loops: 500 by default, the changelog's 2s4llc figure; 2000 in
# the original posting).
# "pair" sets measure SELECT_BIAS_PREV with UTIL_FITS_CAPACITY on both sides.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
stats=${STATS:-$here/../build/bin/stats}
stream=${SP_STREAM:-$here/../build/bin/sp-stream}
reps=10
while getopts "n:" o; do
	case $o in
	n) reps=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(fit bias pair fit-llc bias-llc pair-llc pipe pipe-fit pipe-pair boost)
[ -x "$stats" ] || { echo "error: $stats missing; run 'make tools'" >&2; exit 1; }

# shellcheck source=lib.sh
. "$here/lib.sh"
F=$SCHED_FEATURES
save_features
cleanup_on_exit restore_features

# N:M with idle time left: 8 senders and 8 receivers on 16 CPUs.
HACKBENCH="hackbench -g 1 -f 8 -l 10000 --threads --pipe"
PIPE="perf bench sched pipe -l ${PIPE_LOOPS:-50000}"
# The original posting's hackbench: groups of 20 tasks, 100-byte messages.
HB_SIZE="-f 10 -s 100 -l ${HB_LOOPS:-500}"
HB_ORIG="$HB_SIZE --threads --pipe"
MESSAGING="perf bench sched messaging -t -g 1 -l ${MSG_LOOPS:-500}"
# The same N:M pattern with prev and target always in one LLC and no idle CPU.
llc0=$(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list)
w=$(taskset -c "$llc0" nproc)
HACKBENCH_LLC="taskset -c $llc0 hackbench -g 1 -f $w -l 3000 --threads --pipe"

# one TITLE FEATURE[,FEATURE...] ALSO-ON WORKLOAD...: the A/B of set $s.
# With SP_OUT=DIR, the set's runs also go to DIR/$s.raw (ab-run.sh's lines),
# its table to DIR/$s.csv, and its title and side labels, a line each, to
# DIR/$s.labels, for scripts/bench.sh to plot.
one() {
	local title=$1 feat=$2 also=$3 a b raw=/dev/null csv=()
	shift 3
	a=${feat//,/+} b=NO_${feat//,/+NO_}
	echo "== $title"
	echo "   A: $a, B: $b${also:+ (both with $also)}; $reps interleaved runs per side"
	echo "   workload: $*"
	if [ -n "${SP_OUT:-}" ]; then
		raw=$SP_OUT/$s.raw csv=(-c "$SP_OUT/$s.csv")
		printf '%s\n' "$title" "$a" "$b" >"$SP_OUT/$s.labels"
	fi
	[ -z "$also" ] || echo "$also" >"$F"
	"$here/ab-run.sh" -f "$feat" -n "$reps" -w 1 -- "$@" | tee "$raw" |
		"$stats" -a "$a" -b "$b" -m "$reps" "${csv[@]}"
	[ -z "$also" ] || echo "NO_$also" >"$F"
	echo
}

for s in "${sets[@]}"; do
	case $s in
	fit) one "UTIL_FITS_CAPACITY alone, hackbench" UTIL_FITS_CAPACITY "" $HACKBENCH ;;
	bias) one "SELECT_BIAS_PREV alone, hackbench" SELECT_BIAS_PREV "" $HACKBENCH ;;
	pair) one "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, hackbench" SELECT_BIAS_PREV UTIL_FITS_CAPACITY $HACKBENCH ;;
	fit-llc) one "UTIL_FITS_CAPACITY alone, hackbench in one LLC" UTIL_FITS_CAPACITY "" $HACKBENCH_LLC ;;
	bias-llc) one "SELECT_BIAS_PREV alone, hackbench in one LLC" SELECT_BIAS_PREV "" $HACKBENCH_LLC ;;
	pair-llc) one "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, hackbench in one LLC" SELECT_BIAS_PREV UTIL_FITS_CAPACITY $HACKBENCH_LLC ;;
	pipe) one "SELECT_BIAS_PREV alone, 1:1 pipe" SELECT_BIAS_PREV "" $PIPE ;;
	pipe-pair) one "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, 1:1 pipe" SELECT_BIAS_PREV UTIL_FITS_CAPACITY $PIPE ;;
	pipe-fit) one "UTIL_FITS_CAPACITY alone, 1:1 pipe" UTIL_FITS_CAPACITY "" $PIPE ;;
	boost) one "RUNNABLE_BOOST, messaging" RUNNABLE_BOOST "" $MESSAGING ;;
	stream-[1-9]*)
		[ -x "$stream" ] || { echo "error: $stream missing; run 'make tools'" >&2; exit 1; }
		mask=$(stream_mask)
		one "NUMA_IMB_PINNED, STREAM triad ${s#stream-} passes, pinned to CPUs $mask" NUMA_IMB_PINNED "" \
			taskset -c "$mask" "$stream" -n "${s#stream-}" ${STREAM_MIB:+-m "$STREAM_MIB"} ;;
	both-g[0-9]*)
		one "both wakeup switches, hackbench ${s#both-g} groups" UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" \
			hackbench -g "${s#both-g}" $HB_ORIG ;;
	fit-g[0-9]*)
		one "UTIL_FITS_CAPACITY alone, hackbench ${s#fit-g} groups" UTIL_FITS_CAPACITY "" \
			hackbench -g "${s#fit-g}" $HB_ORIG ;;
	pair-g[0-9]*)
		one "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, hackbench ${s#pair-g} groups" SELECT_BIAS_PREV \
			UTIL_FITS_CAPACITY hackbench -g "${s#pair-g}" $HB_ORIG ;;
	sis-g[0-9]*)
		one "SIS_SMALL_LLC, hackbench ${s#sis-g} groups" SIS_SMALL_LLC "" \
			hackbench -g "${s#sis-g}" $HB_ORIG ;;
	both-sock-g[0-9]*)
		one "both wakeup switches, hackbench ${s#both-sock-g} groups, threads over sockets" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" hackbench -g "${s#both-sock-g}" $HB_SIZE --threads ;;
	both-proc-g[0-9]*)
		one "both wakeup switches, hackbench ${s#both-proc-g} groups, processes over pipes" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" hackbench -g "${s#both-proc-g}" $HB_SIZE --process --pipe ;;
	both-proc-sock-g[0-9]*)
		one "both wakeup switches, hackbench ${s#both-proc-sock-g} groups, processes over sockets" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" hackbench -g "${s#both-proc-sock-g}" $HB_SIZE --process ;;
	both-pipe) one "both wakeup switches, 1:1 pipe" UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" $PIPE ;;
	lat-g[0-9]*)
		one "both wakeup switches, cyclictest next to hackbench ${s#lat-g} groups" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" "$here/latency.sh" "${LAT_SECS:-10}" -g "${s#lat-g}" $HB_ORIG ;;
	tbench-[1-9]*)
		one "both wakeup switches, tbench ${s#tbench-} clients" UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" \
			"$here/tbench.sh" "${TBENCH_SECS:-10}" "${s#tbench-}" ;;
	fit-tbench-[1-9]*)
		one "UTIL_FITS_CAPACITY alone, tbench ${s#fit-tbench-} clients" UTIL_FITS_CAPACITY "" \
			"$here/tbench.sh" "${TBENCH_SECS:-10}" "${s#fit-tbench-}" ;;
	bias-tbench-[1-9]*)
		one "SELECT_BIAS_PREV alone, tbench ${s#bias-tbench-} clients" SELECT_BIAS_PREV "" \
			"$here/tbench.sh" "${TBENCH_SECS:-10}" "${s#bias-tbench-}" ;;
	*) echo "error: unknown set '$s' (both-gN both-sock-gN both-proc-gN both-proc-sock-gN both-pipe lat-gN tbench-N fit-tbench-N bias-tbench-N fit-gN pair-gN fit bias pair fit-llc bias-llc pair-llc pipe pipe-fit pipe-pair stream-N boost)" >&2; exit 2 ;;
	esac
done
