#!/bin/bash
# SIS_SMALL_LLC off / floor 4 / floor 8 / floor 16 (= whole 16-CPU LLC), interleaved,
# hackbench -g G; prints "SIDE METRIC VALUE" for each run.
# usage: sisexp.sh REPS G...
set -eu
reps=$1; shift
F=/sys/kernel/debug/sched/features S=/sys/kernel/debug/sched/sis_scan K=/sys/kernel/debug/sched/sis_small_llc
echo 1 > /proc/sys/kernel/sched_schedstats
saveK=$(cat $K)
trap 'echo NO_SIS_SMALL_LLC > $F; echo $saveK > $K' EXIT
tmp=$(mktemp)
side() {
	case $1 in
	off) echo NO_SIS_SMALL_LLC > $F ;;
	k*) echo ${1#k} > $K; echo SIS_SMALL_LLC > $F ;;
	esac
}
sides=(off k4 k8 k16)
for g in "$@"; do
	for ((i = 0; i <= reps; i++)); do
		n=${#sides[@]}
		for ((j = 0; j < n; j++)); do
			s=${sides[$(((i + j) % n))]}
			side $s
			sleep 0.2
			echo 0 > $S
			w0=$(awk '$1 ~ /^cpu[0-9]+$/ { d += $9; n += $10 } END { print d, n }' /proc/schedstat)
			out=$(perf stat -x, -o $tmp -e cpu-migrations,context-switches,task-clock -- hackbench -g $g -f 10 -s 100 -l 1000 --threads --pipe 2>&1)
			w1=$(awk '$1 ~ /^cpu[0-9]+$/ { d += $9; n += $10 } END { print d, n }' /proc/schedstat)
			[ $i -eq 0 ] && continue
			tag="g$g $s"
			awk -v s="$tag" -v a="$w0" -v b="$w1" 'BEGIN { split(a, x); split(b, y); printf "%s wait_us %.3f\n", s, (y[1] - x[1]) / (y[2] - x[2]) / 1000 }'
			awk -F, -v s="$tag" '$3=="cpu-migrations"{print s, "migrations", $1} $3=="context-switches"{print s, "ctxsw", $1} $3=="task-clock"{print s, "cpus_utilised", $6}' $tmp
			echo "$out" | awk -v s="$tag" '/^Time:/{print s, "time_s", $2}'
			awk -v s="$tag" '/^stopped/{st=$2} /^scanned/{ if ($2 > 0) sc += $3; sum += $2 * $3 } /^found/{f=$2}
				END { print s, "scans", sc; print s, "stopped", st; print s, "found", f;
				      printf "%s found_per_scan %.4f\n", s, sc ? f / sc : 0; printf "%s cpus_per_scan %.2f\n", s, sc ? sum / sc : 0 }' $S
		done
	done
done
