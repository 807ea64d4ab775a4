#!/bin/sh
# schedstats on/off x switches on/off, interleaved; one line a run
F=/sys/kernel/debug/sched/features
for i in $(seq 0 8); do
  for ss in 0 1; do
    for side in A B; do
      if [ $side = A ]; then echo UTIL_FITS_CAPACITY > $F; echo SELECT_BIAS_PREV > $F; else echo NO_UTIL_FITS_CAPACITY > $F; echo NO_SELECT_BIAS_PREV > $F; fi
      echo $ss > /proc/sys/kernel/sched_schedstats
      perf stat -x, -o /tmp/p -e cpu-migrations -- hackbench -g 4 -f 10 -s 100 -l 1000 --threads --pipe > /tmp/h 2>&1
      [ $i = 0 ] && continue
      echo "ss$ss$side migrations $(awk -F, '$3=="cpu-migrations"{print $1}' /tmp/p)"
      echo "ss$ss$side time_s $(awk '/^Time:/{print $2}' /tmp/h)"
    done
  done
done
echo 0 > /proc/sys/kernel/sched_schedstats
