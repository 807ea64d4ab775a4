#!/bin/bash
# Prototype for issue 48, item 5: hackbench's migrations, both wakeup
# switches on against off, with the test's workload unpinned (-g 8 over
# the machine) and as one hackbench per LLC pinned to that LLC (-g 2
# each, the same 160 tasks), interleaved, in one boot.
#   pin-exp.sh RUNS LOOPS
set -u
runs=${1:-20} loops=${2:-150}
F=/sys/kernel/debug/sched/features
mount -t debugfs none /sys/kernel/debug 2>/dev/null
feat() { for f in UTIL_FITS_CAPACITY SELECT_BIAS_PREV; do echo "$1$f" >$F; done; }
echo NO_SIS_LIMIT_STACKING >$F 2>/dev/null
llcs=$(cat /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list | sort -u)
hb="hackbench -f 10 -s 100 -l $loops --threads --pipe"
mig() { perf stat -x, -e cpu-migrations,context-switches -o "$1" "${@:2}" >/dev/null 2>&1; }
unpinned() {
	mig /tmp/u.$$ $hb -g "$total"
	awk -F, '{v[$3]=$1} END {printf "%d %d", v["cpu-migrations"], v["context-switches"]}' /tmp/u.$$
}
pinned() {
	local i=0 l
	for l in $llcs; do
		mig /tmp/p.$$.$i taskset -c "$l" $hb -g "$per" &
		i=$((i + 1))
	done
	wait
	cat /tmp/p.$$.* | awk -F, '{v[$3]+=$1} END {printf "%d %d", v["cpu-migrations"], v["context-switches"]}'
	rm -f /tmp/p.$$.*
}
# 2.5 tasks a CPU: a group of 20 per 8 CPUs of an LLC.
w=$(taskset -c "$(echo "$llcs" | head -1)" nproc)
per=$(( w / 8 > 0 ? w / 8 : 1 ))
total=$(( per * $(echo "$llcs" | wc -l) ))
echo "# llcs: $(echo $llcs); $per groups per LLC pinned, $total unpinned"
echo "# run side variant migrations ctxsw secs"
for r in $(seq 0 "$runs"); do
	for k in 0 1; do
		on=$(( (r + k) % 2 ))
		[ $on = 1 ] && feat "" || feat NO_
		for v in unpinned pinned; do
			t0=$(date +%s.%N)
			out=$($v)
			t1=$(date +%s.%N)
			echo "$r $([ $on = 1 ] && echo on || echo off) $v $out $(awk -v a="$t0" -v b="$t1" "BEGIN{printf \"%.2f\", b - a}")"
		done
	done
done
feat NO_
