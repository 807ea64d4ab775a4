/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads that several of the task placement tests share: spinners and pipe
 * messaging.
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

#endif /* __SCHED_PLACEMENT_LOADS_H */
