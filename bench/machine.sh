#!/usr/bin/env bash
# What a performance engineer asks of the machine an A/B ran on, besides
# its topology (topology.sh): written by series-ab.sh to SP_OUT/machine
# before the first set runs, in the guest and on a host. One "KEY VALUE"
# line each:
#   cmdline      the kernel's command line
#   smt_control  /sys/devices/system/cpu/smt/control (on, off, forceoff,
#                notsupported, notimplemented; "-" where sysfs has none)
#   smt_active   1 if SMT siblings are online, else 0 ("-" where none)
#   sockets      the distinct physical packages of the CPUs
#   nodes        the NUMA nodes with CPUs, and a "nodeN CPULIST" line each
#   nps          nodes per socket (AMD's NPS setting), where it divides
#                evenly, else "-"
#   loadavg      /proc/loadavg's 1, 5 and 15 minute averages
#   busy_pct     the share of all CPUs' time busy over IDLE_SECS (1 s),
#                from two samples of /proc/stat (steal counted busy)
#   sample_s     IDLE_SECS
#   idle         yes, or no when busy_pct is above IDLE_MAX_PCT (5)
#
#   machine.sh
# SP_SYSFS and SP_PROC stand for /sys and /proc (the tests give them fake
# trees).
set -euo pipefail
sys=${SP_SYSFS:-/sys} proc=${SP_PROC:-/proc}
secs=${IDLE_SECS:-1} max=${IDLE_MAX_PCT:-5}
[[ $secs =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "error: IDLE_SECS=$secs: want seconds" >&2; exit 2; }
[[ $max =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "error: IDLE_MAX_PCT=$max: want a percentage" >&2; exit 2; }
cpu=$sys/devices/system/cpu
# ticks: busy and all ticks of the "cpu" line of /proc/stat (user nice
# system idle iowait irq softirq steal; guest is counted in user).
ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' "$proc/stat"; }
t0=$(ticks)
sleep "$secs"
t1=$(ticks)
echo "cmdline $(cat "$proc/cmdline" 2>/dev/null || echo -)"
echo "smt_control $(cat "$cpu/smt/control" 2>/dev/null || echo -)"
echo "smt_active $(cat "$cpu/smt/active" 2>/dev/null || echo -)"
sockets=$(cat "$cpu"/cpu[0-9]*/topology/physical_package_id 2>/dev/null | sort -u | grep -c . || true)
echo "sockets $sockets"
nodes=0
for n in $(printf '%s\n' "$sys"/devices/system/node/node[0-9]* | sort -V); do
	[ -e "$n" ] || continue
	list=$(tr -d '[:space:]' <"$n/cpulist")
	[ -n "$list" ] || continue
	nodes=$((nodes + 1))
	echo "${n##*/} $list"
done
echo "nodes $nodes"
if [ "$sockets" -gt 0 ] && [ "$nodes" -gt 0 ] && [ $((nodes % sockets)) = 0 ]; then
	echo "nps $((nodes / sockets))"
else
	echo "nps -"
fi
echo "loadavg $(cut -d' ' -f1-3 "$proc/loadavg" 2>/dev/null || echo -)"
awk -v a="$t0" -v b="$t1" -v max="$max" 'BEGIN {
	split(a, x); split(b, y)
	p = y[2] > x[2] ? 100 * (y[1] - x[1]) / (y[2] - x[2]) : 0
	printf "busy_pct %.1f\nsample_s %s\nidle %s\n", p, '"$secs"', (p > max + 0) ? "no" : "yes" }'
