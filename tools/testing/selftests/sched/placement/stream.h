/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The triad of the STREAM benchmark, a[i] = b[i] + q * c[i]: memory
 * bandwidth bound work whose speed depends on where its pages and its CPU
 * are. The arrays and one pass, for loads that pace the passes themselves,
 * and a thread body that runs a number of them.
 */
#ifndef __SCHED_PLACEMENT_STREAM_H
#define __SCHED_PLACEMENT_STREAM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_getcpu() */
#endif
#include <sched.h>
#include <stdlib.h>
#include <time.h>

struct stream_triad {
	size_t n;		/* elements of each of a, b and c */
	int ntimes;		/* passes over the arrays */
	int cpu;		/* where the thread started, -1 until then */
	double secs;		/* the passes, < 0 on failure */
};

static inline double stream_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The three arrays of @n elements each in one allocation, first touched
 * here (so that their pages are on the caller's node): b[i] = 2, c[i] =
 * 0.5, and a[i] = 3.5 after a pass. NULL when out of memory; free(a).
 */
static inline double *stream_alloc(size_t n)
{
	double *a = malloc(3 * n * sizeof(*a));

	if (!a)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		a[i] = 1.0;
		a[n + i] = 2.0;
		a[2 * n + i] = 0.5;
	}
	return a;
}

/* One pass of the triad over the arrays of stream_alloc(). */
static inline void stream_pass(double *a, size_t n)
{
	const double *b = a + n, *c = b + n;

	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + 3.0 * c[i];
	/* The passes are the measurement: keep every one of them. */
	__asm__ __volatile__("" : : "r"(a) : "memory");
}

/*
 * Notes its CPU, allocates and first touches its arrays and runs the
 * passes.
 */
static inline void *stream_triad_thread(void *arg)
{
	struct stream_triad *t = arg;
	double *a, t0;

	__atomic_store_n(&t->cpu, sched_getcpu(), __ATOMIC_RELEASE);
	a = stream_alloc(t->n);
	if (!a) {
		t->secs = -1;
		return NULL;
	}
	t0 = stream_now();
	for (int k = 0; k < t->ntimes; k++)
		stream_pass(a, t->n);
	t->secs = stream_now() - t0;
	free(a);
	return NULL;
}

/* The bandwidth of a finished thread in GB/s: 3 x 8 bytes per element. */
static inline double stream_gbps(const struct stream_triad *t)
{
	return 3.0 * sizeof(double) * t->n * t->ntimes / t->secs / 1e9;
}

#endif /* __SCHED_PLACEMENT_STREAM_H */
