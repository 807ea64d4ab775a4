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
 * thread is. The calling thread creates the others one after the other
 * without waiting, and each new thread spins from its start, as libgomp's do
 * (OMP_WAIT_POLICY's spinning): so every clone is placed by fork placement
 * (select_task_rq_fair() with SD_BALANCE_FORK, where the NUMA imbalance cap
 * acts) while the threads made before it are running. The CPU each thread
 * starts on is recorded before it does anything.
 *
 * The threads never sleep: the barriers between passes spin, yielding the
 * CPU to whatever else is queued there. A sleeping barrier (futex) would
 * wake each thread at every pass, and a wakeup may move it (wake_affine()
 * pulls a sync wakee next to its waker): that is the wakeup path's
 * placement, not fork's, and OpenMP's threads mostly do not sleep.
 *
 * Each of the arrays a, b and c holds MIB MiB in all (default: 4 x the LLC
 * of CPU 0, STREAM's sizing rule for one cache), split evenly over the
 * threads; a thread touches its share first, so that its pages sit on its
 * node. Then NTIMES passes (default 10, STREAM's own), each between two
 * barriers, and STREAM's figure: the best pass after the first, 3 x 8 bytes
 * per element, in MB/s, and its rate from the mean of those passes.
 *
 * Prints, for bench/ab-run.sh:
 *   sp-metric: triad_mbps MB/s     (best pass; higher is better)
 *   sp-metric: triad_avg_mbps MB/s (mean pass; higher is better)
 *   sp-metric: stacked N           (threads that started on a CPU another
 *                                   thread had started on)
 *   sp-metric: moved N             (threads that ended on another CPU than
 *                                   they started on)
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

/* The triad itself, shared with the kselftests. */
#include "../tools/testing/selftests/sched/placement/stream.h"

#define MAX_THREADS 1024
#define MAX_MIB (1L << 16)	/* 64 GiB per array */

static int ntimes = 10, nr_threads;
static size_t share;		/* elements of each array per thread */
static double best = -1;	/* the best pass after the first, seconds */
static double sum;		/* the passes after the first, seconds */
static int failed;		/* a thread found no memory */

struct worker {
	pthread_t th;
	int cpu;		/* where the thread started, -1 until then */
	int end_cpu;		/* where it was after the last pass */
};

static struct worker w[MAX_THREADS];

/*
 * A counting barrier that spins: the last thread to arrive moves the
 * generation on, the others wait for that with sched_yield(), which
 * returns at once on a CPU where nothing else is queued.
 */
static unsigned int arrived, generation;

static void spin_barrier(void)
{
	unsigned int gen = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL) == (unsigned int)nr_threads) {
		__atomic_store_n(&arrived, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&generation, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&generation, __ATOMIC_ACQUIRE) == gen)
		sched_yield();
}

static void *triad(void *arg)
{
	struct worker *me = arg;
	double *a, t0 = 0;

	if (me != w)
		__atomic_store_n(&me->cpu, sched_getcpu(), __ATOMIC_RELEASE);
	a = stream_alloc(share);
	if (!a)
		__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
	for (int k = 0; k < ntimes; k++) {
		spin_barrier();
		/* Every thread sees the flag after the first barrier. */
		if (__atomic_load_n(&failed, __ATOMIC_RELAXED))
			break;
		if (me == w)
			t0 = stream_now();
		stream_pass(a, share);
		spin_barrier();
		if (me == w && k > 0) {
			double t = stream_now() - t0;

			sum += t;
			if (best < 0 || t < best)
				best = t;
		}
	}
	me->end_cpu = sched_getcpu();
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

/* A decimal in [min, max] from @s, or -1. */
static long number(const char *s, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= min && v <= max ? v : -1;
}

int main(int argc, char **argv)
{
	int opt, err, stacked = 0, moved = 0;
	long mib = 0;
	cpu_set_t mask;
	double bytes;

	while ((opt = getopt(argc, argv, "n:m:")) != -1) {
		switch (opt) {
		case 'n':
			ntimes = number(optarg, 2, 100000);
			if (ntimes < 0)
				goto usage;
			break;
		case 'm':
			mib = number(optarg, 1, MAX_MIB);
			if (mib < 0)
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
	w[0].cpu = sched_getcpu();
	for (int i = 1; i < nr_threads; i++) {
		w[i].cpu = -1;
		err = pthread_create(&w[i].th, NULL, triad, &w[i]);
		if (err) {
			fprintf(stderr, "sp-stream: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	triad(&w[0]);
	for (int i = 1; i < nr_threads; i++)
		pthread_join(w[i].th, NULL);
	if (failed) {
		fprintf(stderr, "sp-stream: out of memory for 3 arrays of %ld MiB\n", mib);
		return 1;
	}
	for (int i = 0; i < nr_threads; i++) {
		moved += w[i].end_cpu != w[i].cpu;
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
	printf("sp-metric: moved %d\n", moved);
	return 0;

usage:
	fprintf(stderr, "usage: sp-stream [-n NTIMES (2..100000)] [-m MIB per array (1..%ld)]\n",
		MAX_MIB);
	return 1;
}
