// SPDX-License-Identifier: GPL-2.0
/*
 * sp-stress: the patched kernel under load while everything the series
 * adds is changed under it. Runs in the guest, as root, for -d seconds:
 *
 *   load      hackbench (rt-tests) in a loop, STREAM-like triad threads
 *             (one per 8 CPUs),
 *             and a pipe ring; every hackbench run must exit 0
 *   toggles   the series' switches (switches.h, SIS_LIMIT_STACKING among
 *             them) flipped in random combinations, every fourth one all
 *             on (the seconds with all on are counted), and
 *             sis_small_llc written with valid values (which must land)
 *             and invalid ones (which must fail and change nothing)
 *   reader    /sys/kernel/debug/sched/sis_scan, sis_wake and features read
 *             in a loop, and sis_scan and sis_wake cleared at random, while
 *             the rest goes on; every read of sis_scan must parse
 *             (placement.c's sis_scan_read()), and every read of sis_wake
 *             (its comment line, then the names of the first read, each
 *             with a count that does not go down between clears)
 *   hotplug   (-H) a single CPU, every CPU of one LLC, and all of the last
 *             node but one CPU, taken offline and back, in turn, with
 *             every switch on; with -H the run cycles through 10 s of
 *             toggles and 20 s of hotplug
 *   affinity  the load's threads moved to random masks (one CPU, one LLC,
 *             CPUs of both nodes), and children forked with such masks
 *   cpuset    (-c, cgroup v2 with cpuset) an LLC made a partition root and
 *             back to a member, in turn
 *   RT        a SCHED_FIFO task (priority 1) spinning 2 ms every 10 ms
 *             for the whole run, pinned to one CPU, the next usable one
 *             every 3 s: a CPU the fair load is allowed on (20% of one
 *             CPU at most; RT throttling left at its setting, printed)
 *
 * -B runs on the base kernel, the series' reference (stress.sh -b): the
 * same load, reader (of the features file only), hotplug, affinity,
 * cpuset and RT task, without the toggles, sis_scan and sis_wake, which the base does
 * not have.
 *
 * Schedstats are turned on for the run (sis_wake counts only then) and
 * sis_wake is cleared at the start. The decisions of the whole run are
 * the counts read just before each clear plus the last read, per name of
 * the file: printed as "# wake_NAME COUNT". With -f MIN_FITS the run fails
 * unless the fit (the fit_* counts summed) and the bias (bias_*) each
 * decided at least MIN_FITS wakeups: a run where they never fired did not
 * stress them.
 *
 * The features, schedstats and sis_small_llc are saved and put back as
 * the kselftests do it (placement.c's knobs_save(), under their lock: the
 * run waits for a kselftest's guard still restoring, and a kselftest for
 * the run). At the end every CPU is online again, schedstats are as they were,
 * and the features file and sis_small_llc read as they did at the start.
 * Prints one "# name count" line per counter and exits 0 when nothing
 * unexpected happened, 1 when something did (each such event is printed),
 * 2 on bad usage.
 *
 *   sp-stress [-d SECONDS] [-s SEED] [-H] [-c] [-B] [-f MIN_FITS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The STREAM triad, and the file, time, topology and CPU hotplug helpers,
 * shared with the kselftests (linked with their placement.c).
 */
#include "../tools/testing/selftests/sched/placement/placement.h"
#include "../tools/testing/selftests/sched/placement/stream.h"

#define VERBOSE		SCHED_DEBUGFS "/sched/verbose"
#define CG		"/sys/fs/cgroup"
#define CGDIR		CG "/sp-stress"

static atomic_int stop;
static atomic_long errors;
static bool base;	/* -B: the base kernel, without the series' files */
/*
 * With hotplug, the run cycles through three slices of SLICE seconds
 * under the same load: a toggle storm, then two of hotplug with every
 * switch on (a hotplug cycle costs more than a flip). Both at once would
 * mostly measure the toggles waiting for cpu_hotplug_lock, which every
 * static key flip and every hotplug operation take.
 */
#define SLICE		10
enum { STORM, HOTPLUG };
static atomic_int phase;

enum { C_TOGGLES, C_SMALL_OK, C_SMALL_BAD, C_READS, C_CLEARS, C_WAKE_READS,
	C_WAKE_CLEARS, C_HOTPLUG,
	C_OFFLINE_BUSY, C_AFFINITY, C_AFFINITY_OFFLINE, C_FORKS, C_HACKBENCH,
	C_TRIADS, C_RING, C_CPUSET, C_CPUSET_REFUSED, C_RT_PERIODS, C_RT_LATE,
	C_RT_MOVES, NR_COUNTERS };
static const char * const counter_names[] = {
	"switch toggles", "sis_small_llc valid writes",
	"sis_small_llc invalid writes rejected", "sis_scan and features reads",
	"sis_scan clears", "sis_wake reads", "sis_wake clears",
	"hotplug cycles", "offline refused (EBUSY)",
	"affinity changes", "affinity refused (EINVAL: no usable CPU in the mask)",
	"forks with a random mask", "hackbench runs", "triad passes",
	"ring messages", "cpuset partition flips", "cpuset partition refused",
	"RT duty-cycle periods", "RT periods started late (resynchronised)",
	"RT CPU moves",
};
static atomic_long counters[NR_COUNTERS];

static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# UNEXPECTED: ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
	atomic_fetch_add(&errors, 1);
}

/* xorshift per thread: reproducible from -s, no shared state. */
static unsigned int seed = 1;

static unsigned int rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* --- topology (read_topology() and the helpers: placement.c) -------- */

static int nodes;

/* Random mask: one CPU, one LLC, or CPUs of every node. */
static void random_mask(cpu_set_t *m, unsigned int *s)
{
	int kind = rnd(s) % 3, c = rnd(s) % nr_cpus;

	CPU_ZERO(m);
	if (kind == 0) {
		CPU_SET(c, m);
	} else if (kind == 1) {
		for (int i = 0; i < nr_cpus; i++)
			if (cpu_llc[i] == cpu_llc[c])
				CPU_SET(i, m);
	} else {
		for (int n = 0; n < nodes; n++) {
			int first = -1;

			for (int i = 0; i < nr_cpus; i++)
				if (cpu_node[i] == n && (first < 0 || rnd(s) % 4 == 0)) {
					CPU_SET(i, m);
					first = i;
				}
		}
	}
}

/* --- load ------------------------------------------------------------ */

#define MAX_WORKERS	64
static pid_t worker_tid[MAX_WORKERS];
static atomic_int nr_workers;

static void register_worker(void)
{
	int i = atomic_fetch_add(&nr_workers, 1);

	if (i < MAX_WORKERS)
		worker_tid[i] = syscall(SYS_gettid);
}

#define TRIAD_N		(256 * 1024)	/* 3 arrays of 2 MiB each */

static void *triad(void *arg)
{
	double *a = stream_alloc(TRIAD_N);

	(void)arg;
	if (!a) {
		bad("triad: out of memory");
		return NULL;
	}
	register_worker();
	while (!atomic_load(&stop)) {
		stream_pass(a, TRIAD_N);
		if (a[TRIAD_N / 2] != 3.5)
			bad("triad computed %f, want 3.5", a[TRIAD_N / 2]);
		atomic_fetch_add(&counters[C_TRIADS], 1);
	}
	free(a);
	return NULL;
}

/* A ring of threads passing one token through pipes: 1:1 wakeups. */
#define RING	8
static int ring_fd[RING][2];

static void *ring_member(void *arg)
{
	long i = (long)arg;
	char c;

	register_worker();
	for (;;) {
		if (read(ring_fd[i][0], &c, 1) != 1) {
			bad("ring read: %s", strerror(errno));
			return NULL;
		}
		if (c == 0 || atomic_load(&stop))
			c = 0;
		else
			atomic_fetch_add(&counters[C_RING], 1);
		if (write(ring_fd[(i + 1) % RING][1], &c, 1) != 1) {
			bad("ring write: %s", strerror(errno));
			return NULL;
		}
		if (c == 0)
			return NULL;
	}
}

static void *hackbench_loop(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		int status;
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			execlp("hackbench", "hackbench", "-g", "2", "-f", "10", "-l",
			       "50", "--threads", "--pipe", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			bad("hackbench: fork or wait failed: %s", strerror(errno));
			return NULL;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			bad("hackbench exited with status %#x%s", status,
			    WIFEXITED(status) && WEXITSTATUS(status) == 127 ?
			    " (not installed: apt install rt-tests)" : "");
			return NULL;
		}
		atomic_fetch_add(&counters[C_HACKBENCH], 1);
	}
	return NULL;
}

/*
 * An RT task beside the fair load: SCHED_FIFO priority 1, pinned to one
 * CPU (any of them: the fair load's random masks cover every CPU) and
 * moved to the next usable one every RT_MOVE seconds; RT_BUSY seconds of
 * spinning every RT_PERIOD. The wakeups that find it on a CPU see a task
 * of another class (no_room_class). The duty cycle bounds it at 20% of
 * one CPU whatever the clock does: after a spin that ends late (woken
 * late, or stopped or throttled during it; counted late when past the
 * period's end) the next period starts RT_PERIOD - RT_BUSY after it,
 * with no catch-up. RT throttling (sched_rt_runtime_us) is left as it
 * is.
 */
#define RT_PERIOD	0.010
#define RT_BUSY		0.002
#define RT_MOVE		3.0

static void rt_move(int *cpu)
{
	cpu_set_t m;

	for (int i = 0; i < nr_cpus; i++) {
		*cpu = (*cpu + 1) % nr_cpus;
		CPU_ZERO(&m);
		CPU_SET(*cpu, &m);
		if (!sched_setaffinity(0, sizeof(m), &m)) {
			atomic_fetch_add(&counters[C_RT_MOVES], 1);
			return;
		}
		/* Offline, or outside this cpuset now (a partition took it). */
		if (errno != EINVAL) {
			bad("RT task: sched_setaffinity(CPU %d): %s", *cpu, strerror(errno));
			return;
		}
	}
}

static void *rt_duty(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	unsigned int s = seed * 13;
	int cpu = rnd(&s) % nr_cpus, err;
	double next, move = 0, t;

	(void)arg;
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err) {
		bad("RT task: SCHED_FIFO: %s", strerror(err));
		return NULL;
	}
	for (next = now(); !atomic_load(&stop);) {
		struct timespec ts;

		if (next >= move) {
			rt_move(&cpu);
			move = next + RT_MOVE;
		}
		spin_for(RT_BUSY);
		atomic_fetch_add(&counters[C_RT_PERIODS], 1);
		next += RT_PERIOD;
		/* Never less rest than the duty cycle's, never a catch-up burst. */
		t = now();
		if (next < t + RT_PERIOD - RT_BUSY) {
			if (next < t)
				atomic_fetch_add(&counters[C_RT_LATE], 1);
			next = t + RT_PERIOD - RT_BUSY;
		}
		ts.tv_sec = (time_t)next;
		ts.tv_nsec = (long)((next - ts.tv_sec) * 1e9);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	return NULL;
}

/* --- what changes under the load -------------------------------------- */

/*
 * Seconds with every switch on, from the toggler's writes (written by it
 * alone, read after it is joined).
 */
static double all_on_secs;

static void *toggler(void *arg)
{
	static const char * const invalid[] = {
		"-1", "abc", "99999999999", "4294967296", "8 9", "",
	};
	unsigned int s = seed * 3;
	char word[64], before[64], after[64];

	unsigned int cur = 0, all_on = (1u << nr_placement_switches) - 1;
	char list[BUF_SIZE];
	double since = now();

	(void)arg;
	/* Where the switches start. */
	if (read_file(FEATURES, list, sizeof(list)) > 0)
		for (int i = 0; i < nr_placement_switches; i++) {
			snprintf(word, sizeof(word), "NO_%s", placement_switches[i].name);
			if (!strstr(list, word))
				cur |= 1u << i;
		}
	for (unsigned int k = 0; !atomic_load(&stop); k++) {
		/*
		 * The storm: random combinations, and every fourth step all on,
		 * which random ones reach once in 2^nr_placement_switches.
		 */
		unsigned int set = atomic_load(&phase) == STORM && k % 4 ?
				   rnd(&s) & all_on : all_on;
		bool was_on = cur == all_on;
		double t;

		/* A toggle is a write that changes the switch. */
		for (int i = 0; i < nr_placement_switches; i++) {
			if (!((set ^ cur) & (1u << i)))
				continue;
			snprintf(word, sizeof(word), "%s%s",
				 set & (1u << i) ? "" : "NO_", placement_switches[i].name);
			if (write_file(FEATURES, word)) {
				bad("writing %s failed", word);
				continue;
			}
			cur ^= 1u << i;
			atomic_fetch_add(&counters[C_TOGGLES], 1);
		}
		/* The switches were as they were from @since until the last write. */
		t = now();
		if (was_on)
			all_on_secs += t - since;
		since = t;
		if (atomic_load(&phase) != STORM) {
			usleep(100000);
			continue;
		}
		if (rnd(&s) & 1) {
			snprintf(word, sizeof(word), "%u", rnd(&s) % 65);
			if (write_file(SIS_SMALL, word) ||
			    read_file(SIS_SMALL, after, sizeof(after)) < 0 ||
			    atoi(after) != atoi(word))
				bad("sis_small_llc did not take %s", word);
			else
				atomic_fetch_add(&counters[C_SMALL_OK], 1);
		} else {
			const char *w = invalid[rnd(&s) % 6];

			read_file(SIS_SMALL, before, sizeof(before));
			if (!write_file(SIS_SMALL, w))
				bad("sis_small_llc took '%s'", w);
			else if (read_file(SIS_SMALL, after, sizeof(after)) < 0 ||
				 strcmp(before, after))
				bad("sis_small_llc changed after '%s'", w);
			else
				atomic_fetch_add(&counters[C_SMALL_BAD], 1);
		}
		usleep(rnd(&s) % 2000);
	}
	if (cur == all_on)
		all_on_secs += now() - since;
	return NULL;
}

/*
 * sis_wake, read with placement.c's sis_wake_read(): its names are the
 * file's own, taken from its first read (wake_init()); every later read
 * must give the same names in the same order, and, between two clears
 * (the reader is the only one to clear), no count may go down.
 */
static struct sis_wake wake_first;
static unsigned long wake_last[SIS_WAKE_MAX];	/* the last read, since the last clear */
/*
 * The run's decisions: at each clear, the read just before it; at the
 * end, the last read. What is counted between a read and its clear is
 * lost, so these are lower bounds (by a few wakeups a clear).
 */
static unsigned long wake_total[SIS_WAKE_MAX];

/* The names, from a first read; false if none. */
static bool wake_init(void)
{
	return !sis_wake_read(&wake_first) && wake_first.nr > 0;
}

/* Reads sis_wake into wake_last; false (and said why) if it does not parse. */
static bool wake_read(void)
{
	struct sis_wake w;
	char buf[BUF_SIZE];
	int n;

	if (read_file(SIS_WAKE, buf, sizeof(buf)) <= 0) {
		bad("reading sis_wake failed");
		return false;
	}
	n = sis_wake_parse(buf, &w) ? -1 : w.nr;
	if (n != wake_first.nr || !w.schedstats) {
		bad("sis_wake does not parse as it did at the start (%d counts, want %d; schedstats on):\n%s",
		    n, wake_first.nr, buf);
		return false;
	}
	for (int i = 0; i < n; i++) {
		if (strcmp(w.name[i], wake_first.name[i])) {
			bad("sis_wake line %d is %s, was %s", i + 2, w.name[i], wake_first.name[i]);
			return false;
		}
		if (w.count[i] < wake_last[i])
			bad("sis_wake %s went from %lu to %lu without a clear",
			    w.name[i], wake_last[i], w.count[i]);
	}
	memcpy(wake_last, w.count, sizeof(w.count[0]) * w.nr);
	return true;
}

static void *reader(void *arg)
{
	char buf[BUF_SIZE];
	struct sis_scan scan;
	unsigned int s = seed * 5;

	(void)arg;
	while (!atomic_load(&stop)) {
		if (!base && sis_scan_read(&scan))
			bad("reading sis_scan failed, or it does not parse");
		if (read_file(FEATURES, buf, sizeof(buf)) <= 0)
			bad("reading features failed");
		atomic_fetch_add(&counters[C_READS], 1);
		if (!base && rnd(&s) % 8 == 0) {
			if (write_file(SIS_SCAN, "0"))
				bad("clearing sis_scan failed");
			else
				atomic_fetch_add(&counters[C_CLEARS], 1);
		}
		if (base)
			continue;
		/* Read, then at random clear right after the read. */
		if (wake_read())
			atomic_fetch_add(&counters[C_WAKE_READS], 1);
		if (rnd(&s) % 8 == 0) {
			if (write_file(SIS_WAKE, "0")) {
				bad("clearing sis_wake failed");
			} else {
				for (int i = 0; i < wake_first.nr; i++)
					wake_total[i] += wake_last[i];
				memset(wake_last, 0, sizeof(wake_last));
				atomic_fetch_add(&counters[C_WAKE_CLEARS], 1);
			}
		}
	}
	return NULL;
}

/* Takes @cpus offline, then online again; 0, or -1 if one stays offline. */
static int cycle(const int *cpus, int n)
{
	int off[MAX_CPUS], nr_off = 0, ret = 0;

	for (int i = 0; i < n; i++) {
		int err = cpu_set_online(cpus[i], false);

		if (!err)
			off[nr_off++] = cpus[i];
		else if (err == -EBUSY)
			atomic_fetch_add(&counters[C_OFFLINE_BUSY], 1);
		else
			bad("offlining CPU %d: %s", cpus[i], strerror(-err));
	}
	for (int i = 0; i < nr_off; i++) {
		int err = cpu_set_online(off[i], true);

		if (err) {
			bad("onlining CPU %d: %s", off[i], strerror(-err));
			ret = -1;
		}
	}
	return ret;
}

static void *hotplug(void *arg)
{
	unsigned int s = seed * 7;
	int cpus[MAX_CPUS];

	(void)arg;
	for (int k = 0; !atomic_load(&stop); k++) {
		int n = 0, c = 1 + rnd(&s) % (nr_cpus - 1);

		if (atomic_load(&phase) != HOTPLUG) {
			usleep(100000);
			k--;
			continue;
		}

		switch (k % 3) {
		case 0:		/* one CPU (CPU 0 stays) */
			cpus[n++] = c;
			break;
		case 1:		/* every CPU of one LLC, not CPU 0's */
			for (int i = 1; i < nr_cpus; i++)
				if (cpu_llc[i] == cpu_llc[c] && cpu_llc[i] != cpu_llc[0])
					cpus[n++] = i;
			break;
		case 2:		/* all of the last node but its first CPU */
			for (int i = 1, first = 1; i < nr_cpus; i++) {
				if (cpu_node[i] != nodes - 1 || cpu_node[0] == nodes - 1)
					continue;
				if (first)
					first = 0;
				else
					cpus[n++] = i;
			}
			break;
		}
		if (!n)
			continue;
		if (cycle(cpus, n))
			return NULL;
		atomic_fetch_add(&counters[C_HOTPLUG], 1);
	}
	return NULL;
}

static void *affinity(void *arg)
{
	unsigned int s = seed * 11 + (unsigned int)(long)arg;
	cpu_set_t m;

	while (!atomic_load(&stop)) {
		int n = atomic_load(&nr_workers);
		pid_t tid;

		if (n > MAX_WORKERS)
			n = MAX_WORKERS;
		if (!n) {
			usleep(1000);
			continue;
		}
		tid = worker_tid[rnd(&s) % n];
		random_mask(&m, &s);
		if (!sched_setaffinity(tid, sizeof(m), &m))
			atomic_fetch_add(&counters[C_AFFINITY], 1);
		else if (errno == EINVAL)	/* every CPU of @m is offline */
			atomic_fetch_add(&counters[C_AFFINITY_OFFLINE], 1);
		else
			bad("sched_setaffinity(%d): %s", tid, strerror(errno));

		/* Fork placement (NUMA_IMB_PINNED) under a random mask. */
		random_mask(&m, &s);
		if (sched_setaffinity(0, sizeof(m), &m))
			continue;
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			double end = now() + 0.002;

			while (now() < end)
				;
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad("forked child failed");
		else
			atomic_fetch_add(&counters[C_FORKS], 1);
		usleep(500);
	}
	return NULL;
}

/* An LLC (not CPU 0's) as a cpuset partition root, then a member again. */
static bool cpuset_ready;

static void cpuset_setup(void)
{
	char list[64];
	int c;

	if (access(CG "/cgroup.controllers", F_OK))
		mount("none", CG, "cgroup2", 0, NULL);
	if (write_file(CG "/cgroup.subtree_control", "+cpuset") ||
	    (mkdir(CGDIR, 0755) && errno != EEXIST)) {
		printf("# cpuset: no cgroup v2 cpuset controller, partitions not flipped\n");
		return;
	}
	for (c = 0; c < nr_cpus && cpu_llc[c] == cpu_llc[0]; c++)
		;
	if (c == nr_cpus)
		return;
	snprintf(list, sizeof(list), "%d", c);
	for (int i = c + 1; i < nr_cpus; i++)
		if (cpu_llc[i] == cpu_llc[c])
			snprintf(list + strlen(list), sizeof(list) - strlen(list), ",%d", i);
	if (write_file(CGDIR "/cpuset.cpus", list)) {
		bad("cpuset.cpus %s refused", list);
		return;
	}
	cpuset_ready = true;
}

static void *cpuset_flipper(void *arg)
{
	bool root = false;

	(void)arg;
	while (!atomic_load(&stop)) {
		int err = write_file(CGDIR "/cpuset.cpus.partition",
				     root ? "member" : "root");

		if (!err)
			root = !root;
		if (!err)
			atomic_fetch_add(&counters[C_CPUSET], 1);
		else
			atomic_fetch_add(&counters[C_CPUSET_REFUSED], 1);
		usleep(200000);
	}
	write_file(CGDIR "/cpuset.cpus.partition", "member");
	return NULL;
}

/* The run's decisions whose name starts with @prefix (fit_, bias_). */
static unsigned long wake_sum(const char *prefix)
{
	unsigned long sum = 0;

	for (int i = 0; i < wake_first.nr; i++)
		if (!strncmp(wake_first.name[i], prefix, strlen(prefix)))
			sum += wake_total[i];
	return sum;
}

/* --- main ------------------------------------------------------------ */

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

/* What the command line asks for, besides seed and base (globals). */
struct options {
	int secs;
	long min_fits;
	bool hotplug, cpuset;
};

/* Phase 1: the command line into @o; 0, or 2 (said why) on bad usage. */
static int parse_args(int argc, char **argv, struct options *o)
{
	char *end;
	int opt;

	*o = (struct options){ .secs = 60 };
	while ((opt = getopt(argc, argv, "d:s:HcBf:")) != -1) {
		switch (opt) {
		case 'd': o->secs = atoi(optarg); break;
		case 's': seed = strtoul(optarg, NULL, 0) ?: 1; break;
		case 'H': o->hotplug = true; break;
		case 'c': o->cpuset = true; break;
		case 'B': base = true; break;
		case 'f':
			errno = 0;
			o->min_fits = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o->min_fits < 0) {
				fprintf(stderr, "-f %s: give the fit and the bias decisions the run must reach, each, as a whole number\n",
					optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: %s [-d SECONDS] [-s SEED] [-H] [-c] [-B] [-f MIN_FITS]\n", argv[0]);
			return 2;
		}
	}
	if (o->secs < 1) {
		fprintf(stderr, "-d %d: give the load time in seconds, >= 1\n", o->secs);
		return 2;
	}
	if (base && o->min_fits) {
		fprintf(stderr, "-f %ld: the decisions are counted in sis_wake, which the base kernel (-B) does not have\n",
			o->min_fits);
		return 2;
	}
	return 0;
}

static char verbose0[8];	/* sched_verbose as it was, put back by put_back() */

/*
 * Phase 2: the knobs saved, the kernel checked (the series' files and
 * switches unless -B, two CPUs or more), schedstats on, sis_wake read
 * and cleared, sched_verbose off. 0, or 1 (said why, the knobs put back).
 */
static int setup(struct sched_knobs *k)
{
	/*
	 * The features, schedstats and sis_small_llc, saved (and debugfs
	 * mounted) as the kselftests save them, under their lock.
	 */
	const char *why = knobs_save(k);

	if (why) {
		fprintf(stderr, "error: %s\n", why);
		return 1;
	}
	if (!base && (!k->sis_small_llc[0] || access(SIS_SCAN, R_OK) ||
		      access(SIS_WAKE, R_OK))) {
		fprintf(stderr, "error: %s, %s or %s missing: run on the patched kernel with CONFIG_SCHEDSTATS\n",
			SIS_SMALL, SIS_SCAN, SIS_WAKE);
		goto refuse;
	}
	for (int i = 0; i < nr_placement_switches && !base; i++)
		if (!strstr(k->features, placement_switches[i].name)) {
			fprintf(stderr, "error: %s is not in %s: kernel without the series\n",
				placement_switches[i].name, FEATURES);
			goto refuse;
		}
	read_topology();
	nodes = nr_nodes();
	if (nr_cpus < 2) {
		fprintf(stderr, "error: fewer than 2 CPUs in sysfs\n");
		goto refuse;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* sis_wake counts only with schedstats on (put back by knobs). */
	write_file(SCHEDSTATS, "1");
	if (!base && (!wake_init() || write_file(SIS_WAKE, "0"))) {
		fprintf(stderr, "error: %s does not parse (a comment line, then lines 'name count') or clear\n",
			SIS_WAKE);
		goto refuse;
	}
	memset(wake_last, 0, sizeof(wake_last));
	/*
	 * sched_verbose prints every CPU's domains to the console at each
	 * hotplug; under emulation the serial console then paces the run.
	 */
	read_file(VERBOSE, verbose0, sizeof(verbose0));
	write_file(VERBOSE, "N");
	return 0;
refuse:
	knobs_restore(k);
	return 1;
}

/* The run's first line: the machine, the options, the RT throttling. */
static void print_header(const struct options *o)
{
	char rt_runtime[24];

	if (read_file("/proc/sys/kernel/sched_rt_runtime_us", rt_runtime, sizeof(rt_runtime)) <= 0)
		snprintf(rt_runtime, sizeof(rt_runtime), "?");
	rt_runtime[strcspn(rt_runtime, "\n")] = '\0';
	printf("# %d CPUs, %d nodes, %d s, seed %u, hotplug %s, cpuset %s, RT task 2 ms in 10 ms (sched_rt_runtime_us %s)%s\n",
	       nr_cpus, nodes, o->secs, seed, o->hotplug ? "on" : "off", o->cpuset ? "on" : "off",
	       rt_runtime, base ? ", base kernel (no toggles)" : "");
	fflush(stdout);
}

static pthread_t threads[MAX_WORKERS + 16];
static int nr_threads;

static void start(void *(*fn)(void *), void *arg)
{
	pthread_create(&threads[nr_threads++], NULL, fn, arg);
}

/*
 * Phase 3: the load (triads, the ring, hackbench, the RT task), then what
 * changes under it. 0, or -1 (said why) if the ring cannot start.
 */
static int start_threads(const struct options *o)
{
	int nr_triad = nr_cpus / 8 ? nr_cpus / 8 : 1;

	if (nr_triad > MAX_WORKERS - RING)
		nr_triad = MAX_WORKERS - RING;
	for (int i = 0; i < nr_triad; i++)
		start(triad, NULL);
	for (int i = 0; i < RING; i++)
		if (pipe(ring_fd[i])) {
			bad("ring pipe: %s", strerror(errno));
			return -1;
		}
	/* The token waits in the first pipe for the ring to start. */
	if (write(ring_fd[0][1], "x", 1) != 1) {
		bad("ring token: %s", strerror(errno));
		return -1;
	}
	for (long i = 0; i < RING; i++)
		start(ring_member, (void *)i);
	start(hackbench_loop, NULL);
	start(rt_duty, NULL);
	if (!base)
		start(toggler, NULL);
	start(reader, NULL);
	start(affinity, (void *)1L);
	start(affinity, (void *)2L);
	if (o->hotplug)
		start(hotplug, NULL);
	if (o->cpuset) {
		cpuset_setup();
		if (cpuset_ready)
			start(cpuset_flipper, NULL);
	}
	return 0;
}

/*
 * Phase 4: -d seconds of load (or until a signal), the slices of the
 * hotplug cycle turned, a progress line every 30 s. Returns its start.
 */
static double run_load(const struct options *o)
{
	double t0 = now();

	for (double next = t0 + 30; now() - t0 < o->secs && !atomic_load(&stop);) {
		sleep(1);
		if (o->hotplug)
			atomic_store(&phase, (int)((now() - t0) / SLICE) % 3 ? HOTPLUG : STORM);
		if (now() >= next) {
			next += 30;
			printf("# %.0f s: %ld toggles, %ld hotplug cycles, %ld hackbench runs\n",
			       now() - t0, atomic_load(&counters[C_TOGGLES]),
			       atomic_load(&counters[C_HOTPLUG]),
			       atomic_load(&counters[C_HACKBENCH]));
			fflush(stdout);
		}
	}
	return t0;
}

/* Phase 5: every thread told to stop and joined; the cpuset removed. */
static void stop_threads(void)
{
	atomic_store(&stop, 1);
	while (nr_threads)
		pthread_join(threads[--nr_threads], NULL);
	if (cpuset_ready)
		rmdir(CGDIR);
}

/*
 * Phase 6: what the run changed put back (every CPU online, the last
 * decisions counted, the knobs, sched_verbose), then checked: the
 * features file and sis_small_llc as at the start, no CPU offline.
 */
static void put_back(struct sched_knobs *k)
{
	char feat1[BUF_SIZE] = "", small1[64] = "", path[96], buf[16];

	for (int cpu = 1; cpu < nr_cpus; cpu++)
		cpu_set_online(cpu, true);
	/* The decisions since the last clear, before anything changes back. */
	if (!base) {
		wake_read();
		for (int i = 0; i < wake_first.nr; i++)
			wake_total[i] += wake_last[i];
	}
	knobs_write_back(k);
	if (verbose0[0])
		write_file(VERBOSE, verbose0);
	read_file(FEATURES, feat1, sizeof(feat1));
	if (strcmp(k->features, feat1))
		bad("the features file differs from the start:\n# %s\n# %s", k->features, feat1);
	if (!base && (read_file(SIS_SMALL, small1, sizeof(small1)) < 0 ||
		      strcmp(k->sis_small_llc, small1)))
		bad("sis_small_llc is %s, was %s", small1, k->sis_small_llc);
	for (int cpu = 1; cpu < nr_cpus; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (read_file(path, buf, sizeof(buf)) > 0 && buf[0] != '1')
			bad("CPU %d is still offline", cpu);
	}
	knobs_release(k);
}

/*
 * Phase 7: the counts, the decisions, and the run's verdict: 0, or 1
 * when something unexpected happened.
 */
static int report(const struct options *o, double t0)
{
	printf("# load time %.0f s\n", now() - t0);
	for (int i = 0; i < NR_COUNTERS; i++)
		printf("# %s %ld\n", counter_names[i], atomic_load(&counters[i]));
	if (!base)
		printf("# all-switches-on seconds %.0f\n", all_on_secs);
	for (int i = 0; i < wake_first.nr; i++)
		printf("# wake_%s %lu\n", wake_first.name[i], wake_total[i]);
	/*
	 * A run in which the fit or the bias never decided a wakeup did not
	 * stress them, whatever else it did.
	 */
	if (o->min_fits && (wake_sum("fit_") < (unsigned long)o->min_fits ||
			    wake_sum("bias_") < (unsigned long)o->min_fits))
		bad("too few decisions: %lu of the fit (fit_*), %lu of the bias (bias_*), want at least %ld of each (-f)",
		    wake_sum("fit_"), wake_sum("bias_"), o->min_fits);
	printf("# unexpected events %ld\n", atomic_load(&errors));
	return atomic_load(&errors) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct sched_knobs knobs;
	struct options o;
	double t0;
	int err;

	err = parse_args(argc, argv, &o);
	if (err)
		return err;
	if (setup(&knobs))
		return 1;
	print_header(&o);
	err = start_threads(&o);
	t0 = err ? now() : run_load(&o);
	stop_threads();
	put_back(&knobs);
	return report(&o, t0);
}
