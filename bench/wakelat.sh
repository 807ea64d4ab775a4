#!/usr/bin/env bash
# The wakeup-to-run delay of a workload's tasks, from `perf sched timehist`
# on stdin, as ab-run.sh -l prints it: "SIDE wakelat_p50_us N" and
# "SIDE wakelat_p99_us N" (nearest-rank percentiles, microseconds; lower is
# better), nothing where no task named COMM woke.
#
#   perf sched timehist -i perf.data | wakelat.sh SIDE COMM[,COMM...]
#
# timehist prints a line per switch-in: time, [cpu], comm[tid/pid], then
# wait time, sch delay and run time (msec). A line counts when its comm is
# one of COMMs and the task had slept: its wait time (since it was switched
# out) is above its sch delay (since it was woken). A preempted task's
# wait is its delay, which is queueing, not a wakeup, and is left out.
set -euo pipefail
[ $# = 2 ] && [[ $1 =~ ^[AB]$ ]] && [ -n "$2" ] || { echo "usage: wakelat.sh A|B COMM[,COMM...] <TIMEHIST" >&2; exit 2; }
awk -v comms=",$2," '
	$1 ~ /^[0-9]+\.[0-9]+$/ && $2 ~ /^\[[0-9]+\]$/ && NF >= 6 {
		name = $3
		sub(/\[[0-9\/]+\]$/, "", name)
		if (!index(comms, "," name ","))
			next
		if ($(NF - 2) + 0 > $(NF - 1) + 0)
			printf "%d\n", $(NF - 1) * 1000 + 0.5
	}' | sort -n | awk -v s="$1" '
	function rank(p,    i) { i = int(p * n); if (i < p * n) i++; return v[i < 1 ? 1 : i] }
	{ v[++n] = $1 }
	END { if (n) printf "%s wakelat_p50_us %d\n%s wakelat_p99_us %d\n", s, rank(0.50), s, rank(0.99) }'
