#!/usr/bin/env bash
# The machine's topology as the scheduler sees it, in the form the VM
# runner checks against a preset (scripts/guest-run.sh) and the results
# records keep: CPUs, the vendor and family, each NUMA node's CPUs, the
# distinct LLCs and SMT sibling sets in CPU order, and CPU 0's sched
# domains. Runs in the guest and on a host (make bench HOST=1).
#   topology.sh
# SP_SYSFS and SP_DEBUGFS stand for /sys and /sys/kernel/debug, and
# SP_CPUINFO for /proc/cpuinfo (the tests give them fake trees).
set -uo pipefail
sys=${SP_SYSFS:-/sys} dbg=${SP_DEBUGFS:-/sys/kernel/debug} cpuinfo=${SP_CPUINFO:-/proc/cpuinfo}
cpulists() { # the distinct cpulists of a per-CPU sysfs file, in CPU order
	for c in $(ls -d "$sys"/devices/system/cpu/cpu[0-9]* | sort -V); do cat "$c/$1" 2>/dev/null; done |
		awk '!seen[$0]++'
}
echo "cpus $(grep -c '^processor' "$cpuinfo")"
echo "vendor $(awk '/^vendor_id/ {print $3; exit}' "$cpuinfo") family $(awk '/^cpu family/ {print $4; exit}' "$cpuinfo")"
for n in "$sys"/devices/system/node/node[0-9]*; do
	[ -e "$n" ] && echo "${n##*/} $(cat "$n/cpulist")"
done | sort -V
cpulists cache/index3/shared_cpu_list | sed 's/^/llc /'
cpulists topology/thread_siblings_list | sed 's/^/smt /'
echo "domains $(cat "$dbg"/sched/domains/cpu0/domain*/name 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
