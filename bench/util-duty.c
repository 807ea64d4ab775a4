// SPDX-License-Identifier: GPL-2.0
/*
 * sp-util-duty: a task of known duty cycle, and what PELT makes of it.
 *
 *   sp-util-duty -m work|spin [-c CPU] [-S SLEEP_US] [-W ITERS] [-R RUN_US]
 *                [-d SECONDS] [-w WARMUP_SECONDS] [-i]
 *   sp-util-duty -C [-c CPU] [-S SLEEP_US]
 *
 * Pins itself to CPU (default 0), then repeats a run phase and a sleep of
 * SLEEP_US microseconds (default 3000, clock_nanosleep on CLOCK_MONOTONIC)
 * for WARMUP_SECONDS (default 0.5, not counted) and then SECONDS (default 4).
 * The run phase is, in mode
 *   work: ITERS iterations of a fixed integer loop, a fixed count of
 *         instructions, however long they take;
 *   spin: a spin on clock_gettime(CLOCK_MONOTONIC) for RUN_US microseconds
 *         (default SLEEP_US / 3), a fixed time, however much work it is.
 * Without -W, work mode first calibrates ITERS so that the loop takes
 * SLEEP_US / 3 (run:sleep = 1:3 on the machine as it is at that moment);
 * -C calibrates, prints and exits. To see what other load does to the same
 * work, calibrate once alone and pass -W to every run (bench/util-duty.sh).
 *
 * Under QEMU TCG one vCPU executes at a time, so with k other vCPUs busy the
 * loop's instructions take about k + 1 times as long in guest time (on the
 * wall clock, and under -icount, where guest time counts every vCPU's
 * instructions): the work mode's duty cycle in guest time grows with k, the
 * spin mode's does not. PELT sees guest time, so util_avg and util_est should
 * follow the duty cycle measured here, not the one the task has alone.
 *
 * Prints one line of key=value at the end (and with -i one a second):
 *   duty          run time over run + sleep time of its own phases, from
 *                 CLOCK_MONOTONIC (guest time in a guest), after the warm-up
 *   sched_duty    the same from /proc/self/schedstat: run time over elapsed
 *   util_avg      se.avg.util_avg from /proc/self/sched, the mean of the mean
 *                 at the start of a run phase (util_avg_lo, its lowest) and
 *                 at the end (util_avg_hi, its highest); read every 100 ms
 *   util_est      se.avg.util_est (the task's EWMA, updated at each dequeue),
 *                 the mean of the same reads
 *   run_us, sleep_us_meas  the mean run phase and the mean sleep as taken
 *                 (a sleep includes the wakeup's delay)
 * The -i lines are written in a run phase and counted in its time: leave -i
 * out of a measurement whose stdout may block (a 9p file in a guest).
 * (The -i lines leave sched_duty out.)
 * util_avg and util_est are NA (and stderr says why) where /proc/self/sched
 * or its fields are missing; the duty cycles are printed all the same.
 * The fields are those of proc_sched_show_task() in kernel/sched/debug.c
 * (Linux 7.3: P(se.avg.util_avg), PM(se.avg.util_est, ~UTIL_AVG_UNCHANGED)).
 * Exit status 1 on bad usage or failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SAMPLE_NS	100000000LL	/* a pair of /proc/self/sched reads */
#define CAL_PERIODS	16

static uint64_t sink = 0x9e3779b97f4a7c15ULL;

/* n steps of a 64-bit LCG; the asm keeps the compiler from folding them. */
static void work(uint64_t n)
{
	uint64_t x = sink;

	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	sink = x;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL }, rem;

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &rem) == EINTR)
		ts = rem;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	return 0;
}

/* The value on the line of /proc/PID/sched whose key is exactly key. */
static int sched_field(const char *buf, const char *key, long long *val)
{
	size_t len = strlen(key);

	for (const char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *c;

		while (*l == ' ')
			l++;
		if (strncmp(l, key, len) || (l[len] != ' ' && l[len] != ':'))
			continue;
		c = strchr(l, ':');
		if (!c)
			return -1;
		*val = strtoll(c + 1, NULL, 10);
		return 0;
	}
	return -1;
}

static int have_sched = 1;	/* cleared, with a note, at the first failure */

static int read_util(long long *avg, long long *est)
{
	static char buf[16384];

	if (!have_sched)
		return -1;
	if (read_file("/proc/self/sched", buf, sizeof(buf))) {
		fprintf(stderr, "sp-util-duty: no /proc/self/sched (%s): util_avg and util_est are NA\n",
			strerror(errno));
		have_sched = 0;
		return -1;
	}
	if (sched_field(buf, "se.avg.util_avg", avg) || sched_field(buf, "se.avg.util_est", est)) {
		fprintf(stderr, "sp-util-duty: /proc/self/sched has no se.avg.util_avg or se.avg.util_est line: util_avg and util_est are NA\n");
		have_sched = 0;
		return -1;
	}
	return 0;
}

/* Run time (ns) from /proc/self/schedstat, or -1. */
static long long schedstat_run(void)
{
	char buf[256];
	long long run;

	if (read_file("/proc/self/schedstat", buf, sizeof(buf)) || sscanf(buf, "%lld", &run) != 1)
		return -1;
	return run;
}

struct acc {
	int64_t run, sleep;
	long periods;
	double lo, hi, est;
	long nlo, nhi;
};

static void print_line(const char *what, const char *mode, int cpu, uint64_t iters,
		       int64_t run_ns, int64_t sleep_ns_, double secs, const struct acc *a,
		       double sched_duty)
{
	printf("%s mode=%s cpu=%d", what, mode, cpu);
	if (!strcmp(mode, "work"))
		printf(" iters=%llu", (unsigned long long)iters);
	else
		printf(" run_set_us=%lld", (long long)(run_ns / 1000));
	printf(" sleep_set_us=%lld secs=%.2f periods=%ld", (long long)(sleep_ns_ / 1000), secs, a->periods);
	if (!a->periods) {
		printf(" duty=NA\n");
		return;
	}
	printf(" run_us=%.1f sleep_us_meas=%.1f duty=%.4f", a->run / 1e3 / a->periods,
	       a->sleep / 1e3 / a->periods, (double)a->run / (a->run + a->sleep));
	if (sched_duty >= 0)
		printf(" sched_duty=%.4f", sched_duty);
	else if (sched_duty > -2)
		printf(" sched_duty=NA");
	if (a->nlo && a->nhi)
		printf(" util_avg=%.1f util_avg_lo=%.1f util_avg_hi=%.1f util_est=%.1f samples=%ld\n",
		       (a->lo / a->nlo + a->hi / a->nhi) / 2, a->lo / a->nlo, a->hi / a->nhi,
		       a->est / (a->nlo + a->nhi), a->nlo + a->nhi);
	else
		printf(" util_avg=NA util_est=NA samples=0\n");
	fflush(stdout);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* ITERS such that work(ITERS) takes target_ns here and now, with sleeps between. */
static uint64_t calibrate(int64_t target_ns, int64_t sleep)
{
	uint64_t n = 100000, iters;
	int64_t t, runs[CAL_PERIODS];

	work(n);	/* first use: faults, and TCG's translation */
	for (;;) {
		t = now_ns();
		work(n);
		t = now_ns() - t;
		if (t >= 20000000 || n >= (1ULL << 40))
			break;
		n *= 2;
	}
	iters = (uint64_t)((double)n * target_ns / (t > 0 ? t : 1));
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < CAL_PERIODS; i++) {
			sleep_ns(sleep);
			t = now_ns();
			work(iters);
			runs[i] = now_ns() - t;
		}
		qsort(runs, CAL_PERIODS, sizeof(runs[0]), cmp_i64);
		t = runs[CAL_PERIODS / 2];
		iters = (uint64_t)((double)iters * target_ns / (t > 0 ? t : 1));
		if (!iters)
			iters = 1;
	}
	return iters;
}

static int usage(void)
{
	fprintf(stderr, "usage: sp-util-duty -m work|spin [-c CPU] [-S SLEEP_US] [-W ITERS] [-R RUN_US] [-d SECONDS] [-w WARMUP_SECONDS] [-i], or sp-util-duty -C [-c CPU] [-S SLEEP_US]\n");
	return 1;
}

static int number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || *v < 0;
}

int main(int argc, char **argv)
{
	double d_secs = 4, warm_secs = 0.5, v;
	long long sleep_us = 3000, run_us = -1, cpu = 0;
	uint64_t iters = 0;
	int opt, interval = 0, cal_only = 0;
	const char *mode = NULL;
	cpu_set_t set;
	int64_t sleep, run_ns, start, end, t_wake, t_sleep, next_sample, next_print, iv_start = 0;
	long long st0 = -1, st1, avg, est;
	int64_t w0 = 0;
	struct acc all = { 0 }, iv = { 0 };
	int measuring = 0, sample = 0, off_cpu = 0;

	while ((opt = getopt(argc, argv, "m:c:S:W:R:d:w:iC")) != -1) {
		switch (opt) {
		case 'm': mode = optarg; break;
		case 'c': if (number(optarg, &v) || v != (long long)v) return usage(); cpu = v; break;
		case 'S': if (number(optarg, &v) || v < 1) return usage(); sleep_us = v; break;
		case 'W': if (number(optarg, &v) || v < 1) return usage(); iters = v; break;
		case 'R': if (number(optarg, &v) || v < 1) return usage(); run_us = v; break;
		case 'd': if (number(optarg, &d_secs) || d_secs <= 0) return usage(); break;
		case 'w': if (number(optarg, &warm_secs)) return usage(); break;
		case 'i': interval = 1; break;
		case 'C': cal_only = 1; break;
		default: return usage();
		}
	}
	if (optind != argc || (!cal_only && (!mode || (strcmp(mode, "work") && strcmp(mode, "spin")))))
		return usage();
	if (cal_only)
		mode = "work";
	if (!strcmp(mode, "work") && run_us >= 0) {
		fprintf(stderr, "sp-util-duty: -R is the spin mode's run time; work mode takes -W ITERS (or calibrates)\n");
		return 1;
	}
	if (!strcmp(mode, "spin") && iters) {
		fprintf(stderr, "sp-util-duty: -W is the work mode's iterations; spin mode takes -R RUN_US\n");
		return 1;
	}
	CPU_ZERO(&set);
	if (cpu < CPU_SETSIZE)
		CPU_SET(cpu, &set);
	else
		errno = EINVAL;
	if (cpu >= CPU_SETSIZE || sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "sp-util-duty: cannot pin to CPU %lld (%s): give an online CPU this task may use (-c)\n",
			cpu, strerror(errno));
		return 1;
	}
	sched_yield();
	if (sched_getcpu() != cpu) {
		fprintf(stderr, "sp-util-duty: pinned to CPU %lld but running on %d\n", cpu, sched_getcpu());
		return 1;
	}
	sleep = sleep_us * 1000;
	if (!strcmp(mode, "work") && !iters) {
		int64_t t = now_ns();

		iters = calibrate(sleep / 3, sleep);
		printf("util-duty-calibration cpu=%lld sleep_set_us=%lld target_run_us=%lld iters=%llu took_s=%.2f\n",
		       cpu, sleep_us, sleep_us / 3, (unsigned long long)iters, (now_ns() - t) / 1e9);
		fflush(stdout);
		if (cal_only)
			return 0;
	}
	run_ns = run_us >= 0 ? run_us * 1000 : sleep / 3;

	start = now_ns();
	end = start + (int64_t)((warm_secs + d_secs) * 1e9);
	next_sample = start + (int64_t)(warm_secs * 1e9);
	next_print = next_sample + 1000000000LL;
	t_sleep = -1;
	for (;;) {
		t_wake = now_ns();
		if (t_sleep >= 0 && measuring) {
			all.sleep += t_wake - t_sleep;
			iv.sleep += t_wake - t_sleep;
			all.periods++;
			iv.periods++;
		}
		if (!measuring && t_wake >= start + (int64_t)(warm_secs * 1e9)) {
			measuring = 1;
			w0 = iv_start = t_wake;
			st0 = schedstat_run();
		}
		if (t_wake >= end)
			break;
		if (interval && measuring && t_wake >= next_print) {
			print_line("util-duty-interval", mode, cpu, iters, run_ns, sleep,
				   (t_wake - iv_start) / 1e9, &iv, -2);
			memset(&iv, 0, sizeof(iv));
			iv_start = t_wake;
			next_print += 1000000000LL;
		}
		sample = measuring && t_wake >= next_sample;
		if (sample) {
			next_sample += SAMPLE_NS;
			if (sched_getcpu() != cpu)
				off_cpu++;
			if (!read_util(&avg, &est)) {
				all.lo += avg; iv.lo += avg; all.nlo++; iv.nlo++;
				all.est += est; iv.est += est;
			}
		}
		if (!strcmp(mode, "work"))
			work(iters);
		else
			while (now_ns() - t_wake < run_ns)
				;
		if (sample && !read_util(&avg, &est)) {
			all.hi += avg; iv.hi += avg; all.nhi++; iv.nhi++;
			all.est += est; iv.est += est;
		}
		t_sleep = now_ns();
		if (measuring) {
			all.run += t_sleep - t_wake;
			iv.run += t_sleep - t_wake;
		}
		sleep_ns(sleep);
	}
	st1 = schedstat_run();
	if (off_cpu) {
		fprintf(stderr, "sp-util-duty: found itself off CPU %lld at %d samples\n", cpu, off_cpu);
		return 1;
	}
	if (st0 < 0 || st1 < 0)
		fprintf(stderr, "sp-util-duty: no /proc/self/schedstat: sched_duty is NA\n");
	print_line("util-duty", mode, cpu, iters, run_ns, sleep, (t_wake - w0) / 1e9, &all,
		   st0 < 0 || st1 < 0 ? -1 : (double)(st1 - st0) / (t_wake - w0));
	return 0;
}
