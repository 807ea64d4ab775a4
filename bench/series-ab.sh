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

# N:M with idle time left: 8 senders and 8 receivers on 16 CPUs.
HACKBENCH="hackbench -g 1 -f 8 -l 10000 --threads --pipe"
PIPE="perf bench sched pipe -l ${PIPE_LOOPS:-50000}"
# The original posting's hackbench: groups of 20 tasks, 100-byte messages.
HB_SIZE="-f 10 -s 100 -l ${HB_LOOPS:-500}"
HB_ORIG="$HB_SIZE --threads --pipe"
MESSAGING="perf bench sched messaging -t -g 1 -l ${MSG_LOOPS:-500}"
# hackbench_llc: the same N:M pattern with prev and target always in one LLC
# and no idle CPU, in HACKBENCH_LLC. Read only for the sets that use it: a
# host whose sysfs shows no L3 (some VMs) can still run, and refuse, the rest.
hackbench_llc() {
	local llc0 w l3=${SP_SYSFS:-/sys}/devices/system/cpu/cpu0/cache/index3/shared_cpu_list
	[ -r "$l3" ] || {
		echo "error: set '$s' needs the LLC of CPU 0, and $l3 is missing: run it where the L3 shows in sysfs (make bench boots such a guest)" >&2
		return 1
	}
	llc0=$(cat "$l3")
	w=$(taskset -c "$llc0" nproc)
	HACKBENCH_LLC="taskset -c $llc0 hackbench -g 1 -f $w -l 3000 --threads --pipe"
}

# def TITLE FEATURE[,FEATURE...] ALSO-ON WORKLOAD...: what set $s runs.
def() {
	title=$1 feat=$2 also=$3
	shift 3
	work=("$@")
}
# count PREFIX: N of set $s, named PREFIX-N or PREFIXN, in N; a message and
# status 2 when N is not a positive number.
count() {
	N=${s#"$1"}
	[[ $N =~ ^[1-9][0-9]*$ ]] || { echo "error: set '$s': ${1}N wants a positive number N" >&2; return 2; }
}

# one: the A/B of set $s, as def set it. With SP_OUT=DIR, the set's runs
# also go to DIR/$s.raw (ab-run.sh's lines), its table to DIR/$s.csv, and
# its title and side labels, a line each, to DIR/$s.labels, for
# scripts/bench.sh to plot.
one() {
	local a b raw=/dev/null csv=()
	a=${feat//,/+} b=NO_${feat//,/+NO_}
	echo "== $title"
	echo "   A: $a, B: $b${also:+ (both with $also)}; $reps interleaved runs per side"
	echo "   workload: ${work[*]}"
	if [ -n "${SP_OUT:-}" ]; then
		raw=$SP_OUT/$s.raw csv=(-c "$SP_OUT/$s.csv")
		printf '%s\n' "$title" "$a" "$b" >"$SP_OUT/$s.labels"
	fi
	[ -z "$also" ] || echo "$also" >"$F"
	"$here/ab-run.sh" -f "$feat" -n "$reps" -w 1 -- "${work[@]}" | tee "$raw" |
		"$stats" -a "$a" -b "$b" -m "$reps" "${csv[@]}"
	[ -z "$also" ] || echo "NO_$also" >"$F"
	echo
}

# set_of SET: def what SET runs; a message and a non-zero status for a set
# that is unknown or cannot run here, before anything has run.
set_of() {
	s=$1
	case $s in
	fit) def "UTIL_FITS_CAPACITY alone, hackbench" UTIL_FITS_CAPACITY "" $HACKBENCH ;;
	bias) def "SELECT_BIAS_PREV alone, hackbench" SELECT_BIAS_PREV "" $HACKBENCH ;;
	pair) def "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, hackbench" SELECT_BIAS_PREV UTIL_FITS_CAPACITY $HACKBENCH ;;
	fit-llc) hackbench_llc || return
		def "UTIL_FITS_CAPACITY alone, hackbench in one LLC" UTIL_FITS_CAPACITY "" $HACKBENCH_LLC ;;
	bias-llc) hackbench_llc || return
		def "SELECT_BIAS_PREV alone, hackbench in one LLC" SELECT_BIAS_PREV "" $HACKBENCH_LLC ;;
	pair-llc) hackbench_llc || return
		def "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, hackbench in one LLC" SELECT_BIAS_PREV UTIL_FITS_CAPACITY $HACKBENCH_LLC ;;
	pipe) def "SELECT_BIAS_PREV alone, 1:1 pipe" SELECT_BIAS_PREV "" $PIPE ;;
	pipe-pair) def "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, 1:1 pipe" SELECT_BIAS_PREV UTIL_FITS_CAPACITY $PIPE ;;
	pipe-fit) def "UTIL_FITS_CAPACITY alone, 1:1 pipe" UTIL_FITS_CAPACITY "" $PIPE ;;
	boost) def "RUNNABLE_BOOST, messaging" RUNNABLE_BOOST "" $MESSAGING ;;
	stream-[0-9]*)
		count stream- || return
		[ "$N" -ge 2 ] || { echo "error: set '$s': STREAM times from its second pass, so N >= 2" >&2; return 2; }
		[ -x "$stream" ] || { echo "error: $stream missing; run 'make tools'" >&2; return 1; }
		mask=$(stream_mask) || return 1
		def "NUMA_IMB_PINNED, STREAM triad $N passes, pinned to CPUs $mask" NUMA_IMB_PINNED "" \
			taskset -c "$mask" "$stream" -n "$N" ${STREAM_MIB:+-m "$STREAM_MIB"} ;;
	both-g[0-9]*)
		count both-g || return
		def "both wakeup switches, hackbench $N groups" UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" \
			hackbench -g "$N" $HB_ORIG ;;
	fit-g[0-9]*)
		count fit-g || return
		def "UTIL_FITS_CAPACITY alone, hackbench $N groups" UTIL_FITS_CAPACITY "" \
			hackbench -g "$N" $HB_ORIG ;;
	pair-g[0-9]*)
		count pair-g || return
		def "SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, hackbench $N groups" SELECT_BIAS_PREV \
			UTIL_FITS_CAPACITY hackbench -g "$N" $HB_ORIG ;;
	sis-g[0-9]*)
		count sis-g || return
		def "SIS_SMALL_LLC, hackbench $N groups" SIS_SMALL_LLC "" \
			hackbench -g "$N" $HB_ORIG ;;
	both-sock-g[0-9]*)
		count both-sock-g || return
		def "both wakeup switches, hackbench $N groups, threads over sockets" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" hackbench -g "$N" $HB_SIZE --threads ;;
	both-proc-g[0-9]*)
		count both-proc-g || return
		def "both wakeup switches, hackbench $N groups, processes over pipes" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" hackbench -g "$N" $HB_SIZE --process --pipe ;;
	both-proc-sock-g[0-9]*)
		count both-proc-sock-g || return
		def "both wakeup switches, hackbench $N groups, processes over sockets" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" hackbench -g "$N" $HB_SIZE --process ;;
	both-pipe) def "both wakeup switches, 1:1 pipe" UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" $PIPE ;;
	lat-g[0-9]*)
		count lat-g || return
		def "both wakeup switches, cyclictest next to hackbench $N groups" \
			UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" "$here/latency.sh" "${LAT_SECS:-10}" -g "$N" $HB_ORIG ;;
	tbench-[0-9]*)
		count tbench- || return
		def "both wakeup switches, tbench $N clients" UTIL_FITS_CAPACITY,SELECT_BIAS_PREV "" \
			"$here/tbench.sh" "${TBENCH_SECS:-10}" "$N" ;;
	fit-tbench-[0-9]*)
		count fit-tbench- || return
		def "UTIL_FITS_CAPACITY alone, tbench $N clients" UTIL_FITS_CAPACITY "" \
			"$here/tbench.sh" "${TBENCH_SECS:-10}" "$N" ;;
	bias-tbench-[0-9]*)
		count bias-tbench- || return
		def "SELECT_BIAS_PREV alone, tbench $N clients" SELECT_BIAS_PREV "" \
			"$here/tbench.sh" "${TBENCH_SECS:-10}" "$N" ;;
	*) echo "error: unknown set '$s' (both-gN both-sock-gN both-proc-gN both-proc-sock-gN both-pipe lat-gN tbench-N fit-tbench-N bias-tbench-N fit-gN pair-gN sis-gN fit bias pair fit-llc bias-llc pair-llc pipe pipe-fit pipe-pair stream-N boost)" >&2; return 2 ;;
	esac
}

# The whole run in a function, which bash reads in full before it starts:
# a script edited while it runs (a bench takes hours) would otherwise go on
# with whatever it then reads at its old offset.
main() {
	local -A seen=()
	# Every set is checked before the first runs.
	for s in "${sets[@]}"; do
		[ -z "${seen[$s]:-}" ] || { echo "error: set '$s' named twice" >&2; exit 2; }
		seen[$s]=1
		set_of "$s" || exit
	done
	save_features
	cleanup_on_exit restore_features
	for s in "${sets[@]}"; do
		set_of "$s"
		one
	done
}
main; exit
