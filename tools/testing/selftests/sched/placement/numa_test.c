// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA_IMB_PINNED: the NUMA imbalance a node may take at fork is capped at
 * the number of CPUs the task may use there, which matters for a task
 * pinned to a few of them. Without the cap, the threads of a task pinned
 * to a few CPUs of two nodes stack on the first node.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "stream.h"

#define REPS		10	/* runs with the switch on, and as many off */
#define STREAM_NTIMES	1	/* passes of each triad */
#define MAX_THREADS	64

/*
 * Idle (idle + iowait) and total time of each CPU from /proc/stat, in
 * USER_HZ ticks; returns 0, or -1 if the file cannot be read.
 */
static int cpu_times(unsigned long long *idle, unsigned long long *total)
{
	unsigned long long v[8];
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int cpu;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu",
			   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) != 9 || cpu < 0 || cpu >= MAX_CPUS)
			continue;
		idle[cpu] = v[3] + v[4];
		total[cpu] = 0;
		for (int i = 0; i < 8; i++)
			total[cpu] += v[i];
	}
	fclose(f);
	return 0;
}

/*
 * Fork placement compares the nodes' idle CPUs, so a run must start with
 * the allowed CPUs idle: the previous run's exit frees hundreds of MB, and
 * the work that follows (RCU callbacks, KASAN quarantine, kworkers) can
 * still run on one of them. Waits, for up to @max seconds, for a 100 ms
 * window in which every CPU of @mask was idle at least 90% of the time;
 * false if none came.
 */
static bool wait_idle(const cpu_set_t *mask, double max)
{
	static unsigned long long i0[MAX_CPUS], t0[MAX_CPUS], i1[MAX_CPUS], t1[MAX_CPUS];
	double end = now() + max;

	while (now() < end) {
		bool idle = true;

		if (cpu_times(i0, t0))
			return false;
		usleep(100000);
		if (cpu_times(i1, t1))
			return false;
		for (int c = 0; c < nr_cpus; c++)
			if (CPU_ISSET(c, mask) &&
			    10 * (i1[c] - i0[c]) < 9 * (t1[c] - t0[c]))
				idle = false;
		if (idle)
			return true;
	}
	return false;
}

/*
 * One run in the calling (fresh) process: the creator, pinned to @mask,
 * makes @nr_threads triad threads and runs a share itself, as OpenMP's
 * master thread does. Returns 1 if two tasks started on one CPU, 0 if not,
 * -1 on error; *@gbps is the bandwidth summed over the tasks.
 */
static int stream_run(const cpu_set_t *mask, int nr_threads, size_t n, double *gbps)
{
	struct stream_triad t[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	int seen[MAX_CPUS] = { 0 }, stacked = 0;

	if (sched_setaffinity(0, sizeof(*mask), mask))
		return -1;
	usleep(20000);
	for (int i = 0; i <= nr_threads; i++)
		t[i] = (struct stream_triad){ .n = n, .ntimes = STREAM_NTIMES, .cpu = -1 };
	t[0].cpu = sched_getcpu();
	for (int i = 1; i <= nr_threads; i++)
		if (pthread_create(&th[i], NULL, stream_triad_thread, &t[i]))
			return -1;
	/* The placement is read when each thread starts. */
	for (int i = 1; i <= nr_threads; i++)
		while (__atomic_load_n(&t[i].cpu, __ATOMIC_ACQUIRE) < 0)
			usleep(1000);
	stream_triad_thread(&t[0]);
	for (int i = 1; i <= nr_threads; i++)
		pthread_join(th[i], NULL);
	*gbps = 0;
	for (int i = 0; i <= nr_threads; i++) {
		if (t[i].secs <= 0)
			return -1;
		*gbps += stream_gbps(&t[i]);
		if (t[i].cpu >= 0 && t[i].cpu < MAX_CPUS && seen[t[i].cpu]++)
			stacked = 1;
	}
	return stacked;
}

/*
 * The kernel lets a node run up to imb_numa_nr tasks before fork placement
 * spreads to the other node; with two or more LLCs per node imb_numa_nr is
 * the number of LLCs. Allow the task half of them, one CPU in each, on two
 * nodes, the way STREAM is commonly pinned (one CPU per LLC in half the
 * LLCs): imb_numa_nr is then more than the allowed CPUs per node. A
 * creator on one allowed CPU makes 2k - 1 threads, 2k tasks for 2k CPUs.
 * With the cap every thread starts on a CPU of its own; without it they
 * stack on the first node.
 *
 * Each task runs STREAM's triad over arrays that hold 4 times the LLC in
 * all (STREAM's own rule), one pass (STREAM's default is 10; the placement
 * the test asserts is read before the first, and under an emulator each
 * pass of a 64-CPU machine's run takes most of a second). Each run is a
 * fresh process, and waits first for the allowed CPUs to be idle.
 *
 * The bars, at most a tenth of the runs with the cap and at least half
 * without, sit well away from the emulator runs of either side.
 */
TEST_F_TIMEOUT(placement, numa_imb_pinned, 240)
{
	int llcs0 = 0, k, nr, stacked[2] = { 0, 0 }, status, busy = 0;
	double *gbps, med[2];
	cpu_set_t mask;
	size_t n;
	pid_t pid;

	if (feature_state("NUMA_IMB_PINNED") < 0)
		SKIP(return, "no NUMA_IMB_PINNED in %s", FEATURES);
	if (read_topology() < 2)
		SKIP(return, "no L3 (cache/index3) in sysfs, or one CPU");
	for (int c = 0; c < nr_cpus; c++)
		if (cpu_node[c] == 0 && cpu_llc[c] == c)
			llcs0++;
	if (nr_nodes() < 2 || llcs0 < 2)
		SKIP(return, "needs 2 nodes with 2+ LLCs each (%d nodes, %d LLCs on node 0)",
		     nr_nodes(), llcs0);
	if (!llc_bytes(0))
		SKIP(return, "no LLC size in sysfs (cache/index3/size)");

	k = llcs0 / 2;
	CPU_ZERO(&mask);
	for (int node = 0; node < 2; node++) {
		int taken = 0;

		for (int c = 0; c < nr_cpus && taken < k; c++)
			if (cpu_node[c] == node && cpu_llc[c] == c) {
				CPU_SET(c, &mask);
				taken++;
			}
	}
	nr = 2 * k - 1;
	if (nr >= MAX_THREADS)
		SKIP(return, "%d threads, more than this test makes", nr);
	n = 4 * llc_bytes(0) / sizeof(double) / (2 * k);
	/* build_sched_domains() sets imb_numa_nr; no file shows it. */
	ksft_print_msg("%d LLCs per node, imb_numa_nr %d assumed\n", llcs0, llcs0);
	ksft_print_msg("%d allowed CPUs per node, %d threads + creator\n", k, nr);
	ksft_print_msg("STREAM triad: passes %d, 3 x %zu doubles per task (4 x the %ld KiB LLC)\n",
		       STREAM_NTIMES, n, llc_bytes(0) >> 10);

	gbps = mmap(NULL, 2 * REPS * sizeof(*gbps), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gbps);
	for (int r = 0; r < 2 * REPS; r++) {
		int on = !(r & 1);

		ASSERT_EQ(0, set_feature("NUMA_IMB_PINNED", on));
		busy += !wait_idle(&mask, 2.0);
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			int st = stream_run(&mask, nr, n, &gbps[r]);

			_exit(st < 0 ? 2 : st);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) <= 1) {
			TH_LOG("a STREAM run failed");
		}
		stacked[on] += WEXITSTATUS(status);
		usleep(50000);
	}
	for (int on = 0; on < 2; on++) {
		double v[REPS];

		for (int r = 0; r < REPS; r++)
			v[r] = gbps[2 * r + !on];
		med[on] = median(v, REPS);
	}
	munmap(gbps, 2 * REPS * sizeof(*gbps));
	ksft_print_msg("runs with two tasks on one CPU: on %d/%d, off %d/%d\n",
		       stacked[1], REPS, stacked[0], REPS);
	if (busy)
		ksft_print_msg("%d of %d runs started with an allowed CPU busy (2 s wait)\n",
			       busy, 2 * REPS);
	ksft_print_msg("triad bandwidth, median: on %.3f, off %.3f GB/s (indicative only)\n",
		       med[1], med[0]);
	/* The effect: no stacking with the cap. Its absence: stacking without. */
	EXPECT_GE(REPS / 10, stacked[1]);
	EXPECT_LE(REPS / 2, stacked[0]);
}

TEST_HARNESS_MAIN
