#!/usr/bin/env bash
# known.sh OUT [KIB] [PASSES]: the ledger's known loads, run in a guest
# booted with LEDGER=1 (scripts/vm.sh), each in a window of its own:
# build/bin/sp-ledger-known from CPU 0 to the CPU that the guest's own
# topology (sysfs) puts at each distance, and the streams; then a writer
# on CPU 0 and a reader at each distance but the SMT sibling sharing a
# buffer (-m share), and STREAM's triad in and out of one L3 (-m triad),
# out of it also on the other socket.
# Writes OUT/known.map, a line per window: LABEL CASE CPU_A CPU_B KIB
# PASSES (for share, PASSES is the rounds; for triad, KIB is each array's).
# ledger/known-check.sh compares the windows with what each case must
# cost. Label 0 is a warm-up window (the model starts cold). SP_SYSFS,
# SP_MARK and SP_LEDGER_KNOWN stand for /sys and the two tools (the host
# test, tests/harness/ledger-known-check.sh, gives it fakes).
set -euo pipefail
out=$1 kib=${2:-256} passes=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
mark=${SP_MARK:-$here/../build/bin/sp-mark}
known=${SP_LEDGER_KNOWN:-$here/../build/bin/sp-ledger-known}
sys=${SP_SYSFS:-/sys}/devices/system/cpu
# list FILE: a sysfs CPU list (0-3,8) as one CPU a line.
list() { tr , '\n' <"$1" | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'; }
pkg0=$(cat "$sys"/cpu0/topology/physical_package_id)
smt=$(list "$sys"/cpu0/topology/thread_siblings_list | grep -vx 0 | head -n 1)
llc=$(comm -23 <(list "$sys"/cpu0/cache/index3/shared_cpu_list | sort) \
	<(list "$sys"/cpu0/topology/thread_siblings_list | sort) | sort -n | head -n 1)
node= remote=
for d in "$sys"/cpu[0-9]*; do
	c=${d##*cpu}
	[ -f "$d/topology/physical_package_id" ] || continue
	if [ "$(cat "$d/topology/physical_package_id")" != "$pkg0" ]; then
		[ -n "$remote" ] && [ "$remote" -lt "$c" ] || remote=$c
	elif ! list "$sys"/cpu0/cache/index3/shared_cpu_list | grep -qx "$c"; then
		[ -n "$node" ] && [ "$node" -lt "$c" ] || node=$c
	fi
done
for v in smt llc node remote; do
	[ -n "${!v}" ] || { echo "error: known.sh: no CPU at distance $v from CPU 0 in this guest" >&2; exit 1; }
done
label=0
: >"$out/known.map"
# window CASE A B KIB PASSES: sp-ledger-known's mode is the case's first
# word (share-llc: share), move for the rest.
window() {
	local mode=move
	case $1 in share-* | triad-*) mode=${1%%-*} ;; esac
	"$mark" start "$label"
	"$known" -m "$mode" -a "$2" -b "$3" -k "$4" -n "$5"
	"$mark" end "$label"
	echo "$label $*" >>"$out/known.map"
	label=$((label + 1))
}
window warmup 0 0 "$kib" "$passes"
window pinned 0 0 "$kib" "$passes"
window smt 0 "$smt" "$kib" "$passes"
window llc 0 "$llc" "$kib" "$passes"
window node 0 "$node" "$kib" "$passes"
window remote 0 "$remote" "$kib" "$passes"
# Streams, pinned: 16 MiB fits one L3 (32 MiB) and not an L2; 64 MiB fits
# no cache.
window stream-l3 0 0 16384 4
window stream-dram 0 0 65536 4
# A writer on CPU 0 and a reader at each distance, the same buffer and
# rounds as the moves.
window share-llc 0 "$llc" "$kib" "$passes"
window share-node 0 "$node" "$kib" "$passes"
window share-remote 0 "$remote" "$kib" "$passes"
# STREAM's triad, pinned, three arrays: 3 x 5461 KiB is just under half of
# one L3 (32 MiB in ledger/zen3.conf); 3 x 43690 KiB is 4 x L3.
window triad-l3 0 0 5461 4
window triad-dram 0 0 43690 2
# The same on the other socket's first CPU: its pages are then the second
# node's, which QEMU 7.2 reports at other addresses than the first's
# (ledger.c, account()); they must be local memory too.
window triad-far "$remote" "$remote" 43690 2
