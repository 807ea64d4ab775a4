/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads for the task placement tests: spinners, pipe messaging, and the
 * wakeup scenarios whose placement the wakeup switches change.
 */
#ifndef __SCHED_PLACEMENT_LOADS_H
#define __SCHED_PLACEMENT_LOADS_H

#include <pthread.h>
#include <sched.h>

/*
 * A busy loop pinned to each CPU of @cpus, until spinners_stop(); @t holds
 * MAX_CPUS threads. Returns the number started.
 */
int spinners_start(const cpu_set_t *cpus, pthread_t *t);
void spinners_stop(pthread_t *t, int n);

/*
 * Answers each byte read from fds[0] on fds[3] until it reads a 0: the far
 * end of a 1:1 ping-pong over two pipes.
 */
void *pong_thread(void *fds);

/*
 * N:M pipe messaging confined to the LLC of CPU 0, as many senders and
 * receivers as the LLC has CPUs, each sender sending @loops messages to
 * each receiver.
 */
void llc_msg_run(int loops);

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

#endif /* __SCHED_PLACEMENT_LOADS_H */
