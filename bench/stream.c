// SPDX-License-Identifier: GPL-2.0
/*
 * sp-stream: STREAM's triad, a[i] = b[i] + q * c[i], over threads made the
 * way an OpenMP STREAM makes them, for the NUMA_IMB_PINNED A/B of
 * bench/series-ab.sh (sets stream-N).
 *
 *   sp-stream [-n NTIMES] [-m MIB]
 *
 * One thread per CPU of the affinity mask it is started with (OpenMP's
 * default team size), the first being the calling thread, as OpenMP's master
 * thread is. The others are created one after the other before any work, so
 * that each one's CPU is chosen by fork placement (select_task_rq_fair() with
 * SD_BALANCE_FORK, where the NUMA imbalance cap acts) and nothing else: the
 * CPU each thread starts on is recorded before it does anything.
 *
 * Each of the arrays a, b and c holds MIB MiB in all (default: 4 x the LLC
 * of CPU 0, STREAM's sizing rule for one cache), split evenly over the
 * threads; a thread touches its share first, so that its pages sit on its
 * node. Then NTIMES passes (default 10, STREAM's own), each between two
 * barriers, and STREAM's figure: the best pass after the first, 3 x 8 bytes
 * per element, in MB/s, and its rate from the mean of those passes. Two
 * threads that start on one CPU share it for every pass until the load
 * balancer parts them, and the slower of the two sets each pass's time; the
 * mean shows stacking that lasted part of the run, which the best hides.
 *
 * Prints, for bench/ab-run.sh:
 *   sp-metric: triad_mbps MB/s     (best pass; higher is better)
 *   sp-metric: triad_avg_mbps MB/s (mean pass; higher is better)
 *   sp-metric: stacked N           (threads that started on a CPU another
 *                                   thread had started on)
 * Exit status 1 on bad usage or failure.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 1024

static int ntimes = 10, nr_threads;
static size_t share;		/* elements of each array per thread */
static pthread_barrier_t bar;
static double best = -1;	/* the best pass after the first, seconds */
static double sum;		/* the passes after the first, seconds */

struct worker {
	pthread_t th;
	int cpu;		/* where the thread started */
	int ok;
};

static struct worker w[MAX_THREADS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *triad(void *arg)
{
	struct worker *me = arg;
	double *a, *b, *c, t0 = 0;

	me->cpu = sched_getcpu();
	a = malloc(3 * share * sizeof(*a));
	me->ok = a != NULL;
	if (a) {
		b = a + share;
		c = b + share;
		for (size_t i = 0; i < share; i++) {
			a[i] = 1.0;
			b[i] = 2.0;
			c[i] = 0.5;
		}
	}
	for (int k = 0; k < ntimes; k++) {
		/* Every thread passes every barrier, even one without arrays. */
		pthread_barrier_wait(&bar);
		if (me == w)
			t0 = now();
		if (a) {
			for (size_t i = 0; i < share; i++)
				a[i] = b[i] + 3.0 * c[i];
			__asm__ __volatile__("" : : "r"(a) : "memory");
		}
		pthread_barrier_wait(&bar);
		if (me == w && k > 0) {
			double t = now() - t0;

			sum += t;
			if (best < 0 || t < best)
				best = t;
		}
	}
	free(a);
	return NULL;
}

/* 4 x the LLC of CPU 0 in MiB, from sysfs; 0 if it does not say. */
static long default_mib(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
	char unit = 0;
	long v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld%c", &v, &unit) < 1)
		v = 0;
	fclose(f);
	if (unit == 'K')
		v = (v + 1023) / 1024;
	else if (unit != 'M')
		v = 0;
	return 4 * v;
}

int main(int argc, char **argv)
{
	long mib = 0;
	int opt, stacked = 0;
	cpu_set_t mask;
	double bytes;
	char *end;

	while ((opt = getopt(argc, argv, "n:m:")) != -1) {
		switch (opt) {
		case 'n':
			ntimes = strtol(optarg, &end, 10);
			if (*end || ntimes < 2 || ntimes > 100000)
				goto usage;
			break;
		case 'm':
			mib = strtol(optarg, &end, 10);
			if (*end || mib < 1 || mib > 1 << 20)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
	if (!mib)
		mib = default_mib();
	if (!mib) {
		fprintf(stderr, "sp-stream: no LLC size in sysfs (cpu0/cache/index3/size); give -m MIB\n");
		return 1;
	}
	if (sched_getaffinity(0, sizeof(mask), &mask)) {
		perror("sp-stream: sched_getaffinity");
		return 1;
	}
	nr_threads = CPU_COUNT(&mask);
	if (nr_threads > MAX_THREADS) {
		fprintf(stderr, "sp-stream: %d CPUs allowed, at most %d\n", nr_threads, MAX_THREADS);
		return 1;
	}
	share = ((size_t)mib << 20) / sizeof(double) / nr_threads;
	pthread_barrier_init(&bar, NULL, nr_threads);
	w[0].cpu = sched_getcpu();
	for (int i = 1; i < nr_threads; i++) {
		w[i].cpu = -1;
		if (pthread_create(&w[i].th, NULL, triad, &w[i])) {
			perror("sp-stream: pthread_create");
			return 1;
		}
		/* The next clone is placed with this thread running. */
		while (__atomic_load_n(&w[i].cpu, __ATOMIC_ACQUIRE) < 0)
			sched_yield();
	}
	triad(&w[0]);
	for (int i = 1; i < nr_threads; i++)
		pthread_join(w[i].th, NULL);
	for (int i = 0; i < nr_threads; i++) {
		if (!w[i].ok) {
			fprintf(stderr, "sp-stream: out of memory for %ld MiB arrays\n", mib);
			return 1;
		}
		for (int j = 0; j < i; j++)
			if (w[j].cpu == w[i].cpu) {
				stacked++;
				break;
			}
	}
	printf("sp-stream: threads %d, passes %d, arrays 3 x %ld MiB\n", nr_threads, ntimes, mib);
	bytes = 3.0 * sizeof(double) * share * nr_threads;
	printf("sp-metric: triad_mbps %.1f\n", bytes / best / 1e6);
	printf("sp-metric: triad_avg_mbps %.1f\n", bytes / (sum / (ntimes - 1)) / 1e6);
	printf("sp-metric: stacked %d\n", stacked);
	return 0;

usage:
	fprintf(stderr, "usage: sp-stream [-n NTIMES (2..100000)] [-m MIB per array]\n");
	return 1;
}
