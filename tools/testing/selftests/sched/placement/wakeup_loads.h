/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loads only wakeup_test uses: the wakeup scenarios whose placement
 * the wakeup switches change.
 */
#ifndef __SCHED_PLACEMENT_WAKEUP_LOADS_H
#define __SCHED_PLACEMENT_WAKEUP_LOADS_H

/*
 * The wakeup scenarios, in the LLC of the last CPU. Each runs for 1.4 s
 * and returns its rate, or -1 (with a message) when it cannot measure.
 *
 * Moved wakeups per wakeup of the wakee, from its schedstats (needs
 * kernel.sched_schedstats=1):
 *  - busy_prev_moved(): a wakee woken on its busy prev CPU, with an idle
 *    CPU on another core;
 *  - idle_sibling_moved(): the same, the idle CPU being prev's SMT sibling;
 *  - waker_prev_moved(): a sync wakee whose prev runs another task, woken
 *    from another CPU of the LLC.
 * rt_cpu_share(): the share of a fair task's wakeups that find it on the
 * CPU of a SCHED_FIFO task with a 20% duty cycle.
 * pair_stacked(): the share of the wakeups of a 1:1 pair that put the
 * woken side on its waker's CPU.
 */
double busy_prev_moved(void);
double idle_sibling_moved(void);
double waker_prev_moved(void);
double rt_cpu_share(void);
double pair_stacked(void);

/*
 * The first CPU of each of the first @max cores of the last CPU's LLC.
 * Returns how many.
 */
int last_llc_cores(int *cpus, int max);

#endif /* __SCHED_PLACEMENT_WAKEUP_LOADS_H */
