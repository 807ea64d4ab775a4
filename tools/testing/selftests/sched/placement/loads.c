// SPDX-License-Identifier: GPL-2.0
/*
 * Loads that several of the task placement tests share: spinners and pipe
 * messaging.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#include "loads.h"
#include "placement.h"

static atomic_int spin_stop;

static void *spinner(void *arg)
{
	pin_self((int)(long)arg);
	while (!atomic_load(&spin_stop))
		;
	return NULL;
}

int spinners_start(const cpu_set_t *cpus, pthread_t *t)
{
	int n = 0;

	atomic_store(&spin_stop, 0);
	for (long cpu = 0; cpu < nr_cpus; cpu++)
		if (CPU_ISSET(cpu, cpus) &&
		    !pthread_create(&t[n], NULL, spinner, (void *)cpu))
			n++;
	return n;
}

void spinners_stop(pthread_t *t, int n)
{
	atomic_store(&spin_stop, 1);
	while (n)
		pthread_join(t[--n], NULL);
}

void *pong_thread(void *arg)
{
	int *fds = arg;
	char c;

	while (read(fds[0], &c, 1) == 1 && c)
		if (write(fds[3], &c, 1) != 1)
			break;
	return NULL;
}

/* --- N:M pipe messaging --------------------------------------------- */

#define MSG_SIZE	100
#define MAX_PAIRS	64

struct msg_load {
	int nr_pairs;
	int loops;
	int (*fds)[2];
};

struct receiver_arg {
	struct msg_load *ml;
	int idx;
};

static void *sender(void *arg)
{
	struct msg_load *ml = arg;
	char msg[MSG_SIZE] = { 0 };

	for (int l = 0; l < ml->loops; l++)
		for (int r = 0; r < ml->nr_pairs; r++)
			if (write(ml->fds[r][1], msg, sizeof(msg)) != sizeof(msg))
				return NULL;
	return NULL;
}

static void *receiver(void *arg)
{
	struct receiver_arg *ra = arg;
	struct msg_load *ml = ra->ml;
	size_t want = (size_t)ml->loops * ml->nr_pairs * MSG_SIZE;
	char buf[MSG_SIZE];

	while (want) {
		ssize_t n = read(ml->fds[ra->idx][0], buf, sizeof(buf));

		if (n <= 0)
			break;
		want -= n;
	}
	return NULL;
}

/* @nr_pairs senders that each send @loops messages to each receiver. */
static void msg_load_run(int nr_pairs, int loops)
{
	pthread_t th[2 * MAX_PAIRS];
	struct receiver_arg rarg[MAX_PAIRS];
	int fds[MAX_PAIRS][2];
	struct msg_load ml;
	int n = 0, nr_pipes = 0;

	if (nr_pairs > MAX_PAIRS)
		nr_pairs = MAX_PAIRS;
	ml = (struct msg_load){ nr_pairs, loops, fds };
	for (; nr_pipes < nr_pairs; nr_pipes++)
		if (pipe(fds[nr_pipes]))
			goto out;
	for (int i = 0; i < nr_pairs; i++) {
		rarg[i] = (struct receiver_arg){ &ml, i };
		if (!pthread_create(&th[n], NULL, receiver, &rarg[i]))
			n++;
	}
	for (int i = 0; i < nr_pairs; i++)
		if (!pthread_create(&th[n], NULL, sender, &ml))
			n++;
	while (n)
		pthread_join(th[--n], NULL);
out:
	while (nr_pipes--) {
		close(fds[nr_pipes][0]);
		close(fds[nr_pipes][1]);
	}
}

/*
 * Two tasks per CPU of the LLC, so that target and prev are busy at most
 * wakeups and select_idle_cpu() runs, whatever the LLC size.
 */
void llc_msg_run(int loops)
{
	cpu_set_t all, llc;

	sched_getaffinity(0, sizeof(all), &all);
	llc_cpus(0, &llc);
	sched_setaffinity(0, sizeof(llc), &llc);
	msg_load_run(llc_weight(0), loops);
	sched_setaffinity(0, sizeof(all), &all);
}
