#!/usr/bin/env bash
# The A/B sets behind the numbers in the series' changelogs, as bench/sets
# defines them (name, switches, metric directions, workload). Runs on the
# patched kernel (in the VM via `make bench`, or on a host as root). Each set
# is an interleaved ab-run.sh; a set that needs another feature on sets it
# first, and the features file is restored.
#
#   series-ab.sh [-n REPS] [SET...]   REPS pairs a set after AB_WARMUP
#                              warm-up ones (default AB_REPS; bench/lib.sh)
#   series-ab.sh -d [SET...]   print what each set would run, run nothing
#   series-ab.sh -c [SET...]   -d without the tools make builds (sp-stream,
#                              sp-schbench): make bench HOST=1 checks its
#                              sets with it before it builds them
#   series-ab.sh -D [SET...]   the same without checking that this machine
#                              can run them (make jobs, for other machines):
#                              what a set reads from this machine stays a
#                              placeholder (LLC0, MASK); a set sized to
#                              the machine (both-g2xllc) is refused
#   series-ab.sh -N [SET...]   -D, with such a set's count left as its rule
#                              (2xllc): make bench checks its sets with it
#                              before it boots the guest that sizes them
#
# A set's count may be relative to the machine it runs on: MULTxllc,
# MULTxcpu or MULTxnode in place of N (both-g2xllc: 2 hackbench groups per
# LLC; tbench-0.5xcpu: a client per 2 online CPUs), resolved from sysfs
# (SP_SYSFS stands for /sys) before the first set runs, rounded, at least
# 1. SET.meta records the count, its rule and the machine's CPUs, LLCs
# and nodes (count=, per=, cpus=, llcs=, nodes=).
#
# One set may be given inline, from the environment, as `make` gives its
# FEATURE A/B (scripts/main.sh): with SP_INLINE_FEATURE=F1,F2 and
# SP_INLINE_WORKLOAD='CMD ARG...', set ab is F1,F2 all on against all
# off, around CMD, titled "F1,F2 A/B"; it is run and reported as any set.
#
# Every set named is checked before the first runs; then SP_OUT/machine
# records the machine (bench/machine.sh). The runs of set S go to
# SP_OUT/S.raw (ab-run.sh's lines) and what it was to SP_OUT/S.meta, and
# its name to SP_OUT/done once it is complete; SCHED_LAT=1 adds the
# wakeup latency percentiles of the hackbench and tbench sets (ab-run.sh -l);
# bench/report.sh turns them into the set's table, CSV, JSON and plots, right
# after the set here, or on the host after the guest with SP_REPORT=0 (make
# bench). Without SP_OUT, a directory is made under TMPDIR and named at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
stats=${STATS:-$here/../build/bin/stats}
stream=${SP_STREAM:-$here/../build/bin/sp-stream}
schbench=${SP_SCHBENCH:-$here/../build/bin/sp-schbench}
reps= dry= defs_only= tools_later= names_only=
while getopts "cdDNn:" o; do
	case $o in
	c) dry=1 tools_later=1 ;;
	d) dry=1 ;;
	D) dry=1 defs_only=1 ;;
	N) dry=1 defs_only=1 names_only=1 ;;
	n) reps=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sets=("$@")
SETS_FILE=${SP_SETS:-$here/sets}
[ ${#sets[@]} -gt 0 ] || read -ra sets < <(sed -n 's/^@default //p' "$SETS_FILE")
report=(true)
if [ "${SP_REPORT:-1}" = 1 ] && [ -z "$dry" ]; then
	report=("$here/report.sh")
	[ -x "$stats" ] || { echo "error: $stats missing; run 'make tools'" >&2; exit 1; }
	# The plots are drawn after each set: a missing gnuplot must stop
	# the run before the first set, not after it.
	command -v "${GNUPLOT:-gnuplot}" >/dev/null ||
		{ echo "error: gnuplot (${GNUPLOT:-gnuplot}) not found; install gnuplot-nox, or run with SP_REPORT=0 and bench/report.sh later" >&2; exit 1; }
fi

# shellcheck source=lib.sh
. "$here/lib.sh"
reps=${reps:-$AB_REPS}

# N:M with idle time left: 8 senders and 8 receivers on 16 CPUs.
HACKBENCH="hackbench -g 1 -f 8 -l 10000 --threads --pipe"
PIPE="perf bench sched pipe -l ${PIPE_LOOPS:-50000}"
# The original posting's hackbench: groups of 20 tasks, 100-byte messages.
HB_SIZE="-f 10 -s 100 -l ${HB_LOOPS:-500}"
HB_ORIG="$HB_SIZE --threads --pipe"
MESSAGING="perf bench sched messaging -t -g 1 -l ${MSG_LOOPS:-500}"
# set_line NAME: the line of bench/sets for set NAME in LINE, with N set
# for a name that ends in a count; a message and status 2 for an unknown
# name or a bad count. An exact name wins; else the longest "PREFIXN" whose
# PREFIX begins NAME.
set_line() {
	local line name best= bestlen=0
	N= LINE= PER=
	while IFS= read -r line; do
		name=${line%%|*} name=${name//[[:space:]]/}
		# A template's own name (both-gN) is no set: its N is no count.
		if [ "$name" = "$1" ] && [[ $name != *N ]]; then
			LINE=$line
			return 0
		fi
		case $name in
		*N) [[ $1 == "${name%N}"* ]] && [ ${#name} -gt "$bestlen" ] && { best=$line bestlen=${#name}; } ;;
		esac
	done < <(grep -v '^[#@]' "$SETS_FILE" | grep .)
	[ -n "$best" ] || { echo "error: unknown set '$1' ($(sets_list))" >&2; return 2; }
	name=${best%%|*} name=${name//[[:space:]]/}
	N=${1#"${name%N}"}
	PER=
	if [[ $N =~ ^([0-9]+(\.[0-9]+)?)x([a-z]+)$ ]]; then
		case ${BASH_REMATCH[3]} in
		llc | cpu | node) ;;
		*) echo "error: set '$1': ${BASH_REMATCH[3]} is no unit of a count; per machine, N is MULTxllc, MULTxcpu or MULTxnode (${name%N}2xllc)" >&2; return 2 ;;
		esac
		awk -v m="${BASH_REMATCH[1]}" 'BEGIN { exit !(m > 0) }' ||
			{ echo "error: set '$1': ${BASH_REMATCH[1]} per ${BASH_REMATCH[3]} is no load; want a multiple above 0 (${name%N}1x${BASH_REMATCH[3]})" >&2; return 2; }
		PER=$N
	elif ! [[ $N =~ ^[1-9][0-9]*$ ]]; then
		echo "error: set '$1': $name wants a positive number N, or a multiple of the machine's LLCs, CPUs or nodes: ${name%N}2xllc, ${name%N}0.5xcpu, ${name%N}1xnode" >&2
		return 2
	fi
	LINE=$best
}
# topo_counts: this machine's online CPUs, distinct LLCs (CPU 0's L3 and
# the others', 0 where sysfs shows no L3) and NUMA nodes with CPUs, in
# TOPO_CPUS, TOPO_LLCS, TOPO_NODES, from SP_SYSFS (default /sys).
topo_counts() {
	local sys=${SP_SYSFS:-/sys} c cpus=() d l
	local -A llcs=()
	if [ -r "$sys/devices/system/cpu/online" ]; then
		mapfile -t cpus < <(cpus_of "$(cat "$sys/devices/system/cpu/online")")
	else
		for d in "$sys"/devices/system/cpu/cpu[0-9]*; do
			[ -e "$d" ] && cpus+=("${d##*/cpu}")
		done
	fi
	for c in "${cpus[@]}"; do
		l=$(cat "$sys/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list" 2>/dev/null) || continue
		llcs[$l]=1
	done
	TOPO_CPUS=${#cpus[@]} TOPO_LLCS=${#llcs[@]} TOPO_NODES=0
	for d in "$sys"/devices/system/node/node[0-9]*; do
		[ -s "$d/cpulist" ] && [ -n "$(tr -d '[:space:]' <"$d/cpulist")" ] && TOPO_NODES=$((TOPO_NODES + 1))
	done
	[ "$TOPO_NODES" -gt 0 ] || TOPO_NODES=1
}
# resolve_per: N, a count per machine (PER: MULTxUNIT), as a whole number
# of this machine's units (topo_counts), rounded, at least 1; PER_FROM says
# how ("2 x 4 LLCs"). A message and status 1 where sysfs shows no unit.
resolve_per() {
	local mult=${PER%x*} unit=${PER##*x} units name
	topo_counts
	case $unit in
	llc) units=$TOPO_LLCS name=LLCs ;;
	cpu) units=$TOPO_CPUS name=CPUs ;;
	node) units=$TOPO_NODES name=nodes ;;
	esac
	[ "$units" -gt 0 ] || {
		echo "error: set '$s' counts per $unit, and ${SP_SYSFS:-/sys} shows no $name (an LLC is a CPU's cache/index3): name an absolute count (${s%"$PER"}N) or a count per CPU (${s%"$PER"}${mult}xcpu)" >&2
		return 1
	}
	N=$(awk -v m="$mult" -v u="$units" 'BEGIN { n = int(m * u + 0.5); print n < 1 ? 1 : n }')
	PER_FROM="$mult x $units $name"
}
# sets_list: the names of bench/sets, for messages.
sets_list() {
	grep -v '^[#@]' "$SETS_FILE" | grep . | cut -d'|' -f1 | tr -d ' \t' | paste -sd' '
}
# field N LINE: the Nth field of a bench/sets line, trimmed.
field() {
	local f
	f=$(cut -d'|' -f"$1" <<<"$2")
	f=${f#"${f%%[![:space:]]*}"} f=${f%"${f##*[![:space:]]}"}
	printf '%s\n' "$f"
}

# need_llc, need_stream: the checks and variables of a set's "needs".
need_llc() {
	local llc0 w l3=${SP_SYSFS:-/sys}/devices/system/cpu/cpu0/cache/index3/shared_cpu_list
	[ -r "$l3" ] || {
		echo "error: set '$s' needs the LLC of CPU 0, and $l3 is missing: run it where the L3 shows in sysfs (make bench boots such a guest)" >&2
		return 1
	}
	llc0=$(cat "$l3")
	w=$(taskset -c "$llc0" nproc)
	# The N:M pattern of $HACKBENCH with prev and target always in one
	# LLC and no idle CPU.
	HACKBENCH_LLC="taskset -c $llc0 hackbench -g 1 -f $w -l 3000 --threads --pipe"
}
need_schbench() {
	[ -r "${SP_SYSFS:-/sys}/devices/system/cpu/cpu0/cache/index3/shared_cpu_list" ] || {
		echo "error: set '$s' sizes its workers by the LLC of CPU 0, which sysfs does not show (cache/index3)" >&2
		return 1
	}
	[ -n "$tools_later" ] || [ -x "$schbench" ] || { echo "error: $schbench missing; run 'make tools'" >&2; return 1; }
}
need_stream() {
	[ "$N" -ge 2 ] || { echo "error: set '$s': STREAM times from its second pass, so N >= 2" >&2; return 2; }
	[ -n "$tools_later" ] || [ -x "$stream" ] || { echo "error: $stream missing; run 'make tools'" >&2; return 1; }
	mask=$(stream_mask) || return 1
}

# inline_set: set ab, given by the environment rather than bench/sets
# (make's A/B): SP_INLINE_FEATURE (a comma list) all on against all off,
# around SP_INLINE_WORKLOAD (split into words, neither globbed nor
# evaluated; its command must be found on PATH), with ab-run.sh's metric
# directions.
inline_set() {
	feat=$SP_INLINE_FEATURE also= higher=$AB_HIGHER title="$SP_INLINE_FEATURE A/B"
	N= PER= PER_FROM=
	read -ra work <<<"${SP_INLINE_WORKLOAD:-}"
	[ ${#work[@]} -gt 0 ] ||
		{ echo "error: set 'ab' (SP_INLINE_FEATURE=$feat) has no workload: SP_INLINE_WORKLOAD is empty" >&2; return 2; }
	# ab-run.sh runs it by PATH; make bench's guest shares this root
	# filesystem, so make's check on the host finds what the guest would.
	command -v "${work[0]}" >/dev/null || {
		echo "error: workload command '${work[0]}' not found on this machine (PATH=$PATH): install it, or give WORKLOAD a command on PATH (make deps installs hackbench)" >&2
		return 2
	}
}
# set_of SET: what SET runs, in title, feat, also, higher and work; a
# message and a non-zero status for a set that is unknown or cannot run
# here, before anything has run.
set_of() {
	local line needs
	s=$1
	if [ "$s" = ab ] && [ -n "${SP_INLINE_FEATURE:-}" ]; then
		inline_set
		return
	fi
	set_line "$s" || return
	line=$LINE
	feat=$(field 2 "$line") also=$(field 3 "$line") needs=$(field 5 "$line")
	[ "$also" != - ] || also=
	PER_FROM=
	if [ -n "$PER" ]; then
		[ "$needs" != stream ] ||
			{ echo "error: set '$s': stream-N counts STREAM's passes, not load: want a whole number, stream-10" >&2; return 2; }
		if [ -n "$names_only" ]; then
			N=$PER
		elif [ -n "$defs_only" ]; then
			echo "error: set '$s' is sized to the machine it runs on ($PER), which -D does not read: name an absolute count (${s%"$PER"}N) for a machine elsewhere" >&2
			return 2
		else
			resolve_per || return
		fi
	fi
	if [ -n "$defs_only" ]; then
		HACKBENCH_LLC="taskset -c LLC0 hackbench -g 1 -f LLC0_CPUS -l 3000 --threads --pipe" mask=MASK
		[ "$needs" != stream ] || [ "$N" -ge 2 ] ||
			{ echo "error: set '$s': STREAM times from its second pass, so N >= 2" >&2; return 2; }
		needs=-
	fi
	case $needs in
	-) ;;
	llc) need_llc || return ;;
	stream) need_stream || return ;;
	schbench) need_schbench || return ;;
	*) echo "error: bench/sets: set '$s' needs '$needs', which series-ab.sh does not know" >&2; return 2 ;;
	esac
	eval "higher=\"$(field 4 "$line")\""
	eval "title=\"$(field 6 "$line")\""
	eval "work=($(field 7 "$line"))"
}

# one: the A/B of set $s, as set_of set it: its runs to $out/$s.raw, what
# it was to $out/$s.meta, then its report. With SCHED_LAT=1, a hackbench
# or tbench set has its wakeup latency measured (ab-run.sh -l).
one() {
	local a b f lat=()
	if [ "${SCHED_LAT:-0}" = 1 ]; then
		case ${work[0]} in
		hackbench) lat=(-l hackbench) ;;
		*/tbench.sh) lat=(-l "tbench,tbench_srv") ;;
		esac
	fi
	a=${feat//,/+} b=NO_${feat//,/+NO_}
	echo "== $s: $title${PER:+ ($N = $PER_FROM)}" >&2
	ab_meta "$out/$s.meta.tmp" "$title" "$a" "$b" "$also" "$reps" "$higher" "${work[*]}"
	[ -z "$PER" ] || printf 'count=%s\nper=%s\nper_from=%s\ncpus=%s\nllcs=%s\nnodes=%s\n' \
		"$N" "$PER" "$PER_FROM" "$TOPO_CPUS" "$TOPO_LLCS" "$TOPO_NODES" >>"$out/$s.meta.tmp"
	mv "$out/$s.meta.tmp" "$out/$s.meta"
	for f in ${also//,/ }; do feature_write "$f"; done
	# SP_LEDGER=1 (bench.sh's LEDGER=1): each run a window of the cache
	# ledger, its label and side in $s.ledger.
	rm -f "$out/$s.ledger"
	SP_LEDGER_MAP=$([ "${SP_LEDGER:-0}" != 1 ] || echo "$out/$s.ledger") \
		"$here/ab-run.sh" -f "$feat" -n "$reps" -w "$AB_WARMUP" "${lat[@]}" -- "${work[@]}" >"$out/$s.raw"
	for f in ${also//,/ }; do feature_write "NO_$f"; done
	echo "$s" >>"$out/done"
	"${report[@]}" "$out" "$s"
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
		[ -z "$dry" ] || printf '%s | %s | %s | %s | %s | %s\n' "$s" "$feat" "${also:--}" "$higher" "$title" "${work[*]}"
	done
	[ -z "$dry" ] || exit 0
	case ${SCHED_LAT:-0} in
	0) ;;
	1)
		local err
		err=$(perf sched record -o /dev/null -- true 2>&1) ||
			{ echo "error: SCHED_LAT=1: perf sched record fails here ($(head -c 300 <<<"$err")): run as root, or with SCHED_LAT=0" >&2; exit 1; }
		;;
	*) echo "error: SCHED_LAT=${SCHED_LAT}: want 1 (wakeup latency of the hackbench and tbench sets, from perf sched) or 0" >&2; exit 2 ;;
	esac
	out=${SP_OUT:-}
	[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/series-ab.XXXXXX")
	printf '%s\n' "${sets[@]}" >"$out/sets"
	# The machine as the runs found it (bench/machine.sh): command line,
	# SMT, NUMA, and whether it was idle, which the report warns of.
	"$here/machine.sh" >"$out/machine.tmp"
	mv "$out/machine.tmp" "$out/machine"
	! grep -qx 'idle no' "$out/machine" || machine_summary "$out/machine" | grep '^WARNING' >&2
	save_features
	cleanup_on_exit restore_features
	for s in "${sets[@]}"; do
		set_of "$s"
		one
	done
	[ -n "${SP_OUT:-}" ] || echo "series-ab: runs, tables and plots in $out" >&2
}
main; exit
