#!/bin/sh
# The where-split's tracing on/off x both wakeup switches on/off,
# interleaved, schedstats on throughout (as ab-run.sh runs); the first
# round discarded; one line per run and metric.
F=/sys/kernel/debug/sched/features
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs none $T
EV="sched_migrate_task sched_waking sched_wakeup"
echo 1 > /proc/sys/kernel/sched_schedstats
for i in $(seq 0 12); do
  for tr in 0 1; do
    for side in A B; do
      if [ $side = A ]; then echo UTIL_FITS_CAPACITY > $F; echo SELECT_BIAS_PREV > $F; else echo NO_UTIL_FITS_CAPACITY > $F; echo NO_SELECT_BIAS_PREV > $F; fi
      : > $T/trace
      for e in $EV; do echo $tr > $T/events/sched/$e/enable; done
      echo $tr > $T/tracing_on
      perf stat -x, -o /tmp/p -e cpu-migrations,context-switches -- hackbench -g 4 -f 10 -s 100 -l 500 --threads --pipe > /tmp/h 2>&1
      echo 0 > $T/tracing_on
      for e in $EV; do echo 0 > $T/events/sched/$e/enable; done
      [ $i = 0 ] && continue
      echo "tr$tr$side migrations $(awk -F, '$3=="cpu-migrations"{print $1}' /tmp/p)"
      echo "tr$tr$side ctxsw $(awk -F, '$3=="context-switches"{print $1}' /tmp/p)"
      echo "tr$tr$side time_s $(awk '/^Time:/{print $2}' /tmp/h)"
    done
  done
done
: > $T/trace
echo 0 > /proc/sys/kernel/sched_schedstats
