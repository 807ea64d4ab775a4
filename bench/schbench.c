// SPDX-License-Identifier: GPL-2.0
/*
 * sp-schbench: a wakeup latency load in the mould of schbench, for the
 * schbench-N sets of bench/series-ab.sh. schbench is what the original RFC of
 * the wakeup switches was judged on (p99 wakeup latency), and Debian does not
 * package it; on hardware, run the real one (make jobs maps the set to it).
 *
 *   sp-schbench [-m MESSAGE_THREADS] [-t WORKERS] [-r SECONDS] [-s SPIN_US]
 *   sp-schbench -p < VALUES
 *
 * MESSAGE_THREADS threads (default 2) each own WORKERS worker threads
 * (default: the CPUs of CPU 0's LLC, so that two message threads put more
 * workers than an LLC has CPUs, as the reviews ran it). A message thread
 * posts a request to each of its workers (the time, its own CPU) and wakes
 * it through a futex; the worker, once running, records its wakeup latency
 * (post to running), spins SPIN_US microseconds (default 100) of request
 * work, records the request latency (post to done), and sleeps again. When
 * all its workers are done the message thread posts the next round, until
 * SECONDS (default 10) have passed.
 *
 * Prints, for bench/ab-run.sh, nearest-rank percentiles over every request:
 *   sp-metric: wakeup_p50_us, _p90_us, _p99_us, _p999_us  (lower is better)
 *   sp-metric: request_p50_us ... request_p999_us          (lower is better)
 *   sp-metric: rps N              requests per second (higher is better)
 *   sp-metric: wake_local_pct P   wakeups run on the CPU the message thread
 *                                 posted from (the waker's CPU)
 * Under QEMU TCG the latencies are the emulator's, comparable only A against
 * B in one boot; the placement figures (ab-run.sh's migrations and wait_us,
 * wake_local_pct) mean what they mean on hardware.
 *
 * -p reads one number per line on stdin and prints the same percentiles of
 * them (p50 p90 p99 p999), to test the percentile code on a known input.
 * Exit status 1 on bad usage or failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 1024

struct samples {
	double *v;
	size_t n, cap;
};

struct msg;

struct worker {
	struct msg *msg;
	pthread_t tid;
	atomic_int posted;		/* futex word: 1 while a request waits */
	double post_time;
	int post_cpu;
	struct samples wake, req;
	unsigned long local, requests;
};

struct msg {
	pthread_t tid;
	struct worker *w;
	int nr;
	atomic_int pending;		/* futex word: workers not done yet */
};

static int spin_us = 100;
static double end_time;
static atomic_int stop;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void futex_wait(atomic_int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static int add(struct samples *s, double v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		double *p = realloc(s->v, cap * sizeof(*p));

		if (!p)
			return -1;
		s->v = p;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the smallest value with at least p of them at or below it. */
static double pct(const struct samples *s, double p)
{
	size_t r = (size_t)(p * s->n);

	if ((double)r < p * s->n)
		r++;
	return s->v[r ? r - 1 : 0];
}

static void print_pcts(const char *name, struct samples *s)
{
	static const double p[] = { 0.50, 0.90, 0.99, 0.999 };
	static const char * const tag[] = { "p50", "p90", "p99", "p999" };

	qsort(s->v, s->n, sizeof(*s->v), cmp);
	for (int i = 0; i < 4; i++)
		printf("sp-metric: %s_%s_us %.1f\n", name, tag[i], pct(s, p[i]));
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;

	for (;;) {
		double t;

		while (!atomic_load(&w->posted) && !atomic_load(&stop))
			futex_wait(&w->posted, 0);
		if (atomic_load(&stop))
			return NULL;
		t = now_us();
		if (add(&w->wake, t - w->post_time))
			exit(1);
		w->local += sched_getcpu() == w->post_cpu;
		while (now_us() - t < spin_us)
			;
		if (add(&w->req, now_us() - w->post_time))
			exit(1);
		w->requests++;
		atomic_store(&w->posted, 0);
		if (atomic_fetch_sub(&w->msg->pending, 1) == 1)
			futex_wake(&w->msg->pending);
	}
}

static void *msg_fn(void *arg)
{
	struct msg *m = arg;

	while (now_us() < end_time) {
		int p;

		atomic_store(&m->pending, m->nr);
		for (int i = 0; i < m->nr; i++) {
			struct worker *w = &m->w[i];

			w->post_cpu = sched_getcpu();
			w->post_time = now_us();
			atomic_store(&w->posted, 1);
			futex_wake(&w->posted);
		}
		while ((p = atomic_load(&m->pending)))
			futex_wait(&m->pending, p);
	}
	return NULL;
}

/* The CPUs of CPU 0's LLC, or 0 when sysfs does not say. */
static int llc_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list", "r");
	int n = 0, a, b;
	char sep;

	if (!f)
		return 0;
	while (fscanf(f, "%d", &a) == 1) {
		b = a;
		if (fscanf(f, "%c", &sep) == 1 && sep == '-') {
			if (fscanf(f, "%d", &b) != 1)
				break;
			if (fscanf(f, "%c", &sep) != 1)
				sep = '\n';
		}
		n += b - a + 1;
		if (sep != ',')
			break;
	}
	fclose(f);
	return n;
}

static int percentiles_of_stdin(void)
{
	struct samples s = { 0 };
	double v;

	while (scanf("%lf", &v) == 1)
		if (add(&s, v))
			return 1;
	if (!feof(stdin) || !s.n) {
		fprintf(stderr, "sp-schbench: -p wants one number per line on stdin\n");
		return 1;
	}
	qsort(s.v, s.n, sizeof(*s.v), cmp);
	printf("p50 %g p90 %g p99 %g p999 %g\n", pct(&s, 0.50), pct(&s, 0.90),
	       pct(&s, 0.99), pct(&s, 0.999));
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: sp-schbench [-m MESSAGE_THREADS] [-t WORKERS] [-r SECONDS] [-s SPIN_US], or sp-schbench -p < VALUES\n");
	return 1;
}

int main(int argc, char **argv)
{
	int nr_msg = 2, nr_workers = 0, secs = 10, opt;
	struct samples wake = { 0 }, req = { 0 };
	unsigned long local = 0, requests = 0;
	struct msg *msgs;
	double start;

	while ((opt = getopt(argc, argv, "m:t:r:s:p")) != -1) {
		switch (opt) {
		case 'm': nr_msg = atoi(optarg); break;
		case 't': nr_workers = atoi(optarg); break;
		case 'r': secs = atoi(optarg); break;
		case 's': spin_us = atoi(optarg); break;
		case 'p': return percentiles_of_stdin();
		default: return usage();
		}
	}
	if (optind != argc)
		return usage();
	if (!nr_workers)
		nr_workers = llc_cpus();
	if (!nr_workers) {
		fprintf(stderr, "sp-schbench: no LLC size in sysfs (cpu0/cache/index3); give -t WORKERS\n");
		return 1;
	}
	if (nr_msg < 1 || nr_workers < 1 || secs < 1 || spin_us < 0 ||
	    nr_msg * (nr_workers + 1) > MAX_THREADS) {
		fprintf(stderr, "sp-schbench: want 1 or more message threads, workers and seconds, a spin of 0 or more, and at most %d threads\n",
			MAX_THREADS);
		return 1;
	}
	msgs = calloc(nr_msg, sizeof(*msgs));
	if (!msgs)
		return 1;
	start = now_us();
	end_time = start + secs * 1e6;
	for (int i = 0; i < nr_msg; i++) {
		msgs[i].nr = nr_workers;
		msgs[i].w = calloc(nr_workers, sizeof(struct worker));
		if (!msgs[i].w)
			return 1;
		for (int j = 0; j < nr_workers; j++) {
			msgs[i].w[j].msg = &msgs[i];
			if (pthread_create(&msgs[i].w[j].tid, NULL, worker_fn, &msgs[i].w[j])) {
				fprintf(stderr, "sp-schbench: pthread_create: %s\n", strerror(errno));
				return 1;
			}
		}
	}
	for (int i = 0; i < nr_msg; i++)
		if (pthread_create(&msgs[i].tid, NULL, msg_fn, &msgs[i])) {
			fprintf(stderr, "sp-schbench: pthread_create: %s\n", strerror(errno));
			return 1;
		}
	for (int i = 0; i < nr_msg; i++)
		pthread_join(msgs[i].tid, NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < nr_msg; i++)
		for (int j = 0; j < nr_workers; j++) {
			struct worker *w = &msgs[i].w[j];

			futex_wake(&w->posted);
			pthread_join(w->tid, NULL);
			for (size_t k = 0; k < w->wake.n; k++)
				if (add(&wake, w->wake.v[k]) || add(&req, w->req.v[k]))
					return 1;
			local += w->local;
			requests += w->requests;
		}
	if (!requests) {
		fprintf(stderr, "sp-schbench: no request completed\n");
		return 1;
	}
	printf("sp-schbench: %d message threads x %d workers, %d s, %d us of work per request\n",
	       nr_msg, nr_workers, secs, spin_us);
	print_pcts("wakeup", &wake);
	print_pcts("request", &req);
	printf("sp-metric: rps %.1f\n", requests / ((now_us() - start) / 1e6));
	printf("sp-metric: wake_local_pct %.2f\n", 100.0 * local / requests);
	return 0;
}
