// SPDX-License-Identifier: GPL-2.0
/*
 * hackbench, threads over pipes, with both wakeup switches on against
 * both off: UTIL_FITS_CAPACITY and SELECT_BIAS_PREV together must cut the
 * migrations of hackbench's tasks, and sis_wake must show that they
 * decided wakeups while on and none while off.
 *
 * One hackbench runs in each LLC, bound to its CPUs, all at once: the
 * switches choose a CPU within the LLC, and the moves between LLCs
 * (about half of an unbound hackbench's, which the switches barely
 * change) would only blur the count.
 *
 * The migrations are counted by a perf software counter that follows
 * each hackbench from its exec through every thread it creates, and
 * nothing else. Anything else busy on the machine (or, under an emulator,
 * on its host) blunts the effect: run it on an otherwise idle system.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"

/* Runs a side: migrations vary 20-35% from run to run. */
#define REPS		10
/* Loops per run: a few seconds a run on 64 emulated CPUs. */
#define HB_LOOPS	150
/* A group of 20 tasks per 8 CPUs of CPU 0's LLC (2.5 a CPU), in each LLC. */
#define CPUS_PER_GROUP	8
/* Mean + 4 sd of 20 runs on 16-CPU and on 8-CPU LLCs, the larger, under QEMU TCG. */
#define BAR		0.65
/*
 * The fewest sis_wake fit_* + bias_* decisions a group and run with the
 * switches on, HB_LOOPS loops fixing a group's messages. Under QEMU TCG,
 * 20 runs on 16-CPU and 20 on 8-CPU LLCs, 8 groups and 10 runs on each,
 * summed 12613-16886 and 15080-20769; the smaller mean - 4 sd, 14745 - 4 x
 * 1178 = 10033 over 80, rounded down: BAR's rule, so that switches which
 * decide a handful of wakeups fail.
 */
#define DECIDED_FLOOR	125

/* The program to run and its arguments, from find_load(); the LLCs. */
struct hb_load {
	char path[PATH_MAX];
	char groups[16], loops[16];
	char *argv[16];
	int nr_llcs;
	cpu_set_t llc[MAX_CPUS];
};

/*
 * counted_run()'s failures, each with its message printed: the test's own
 * steps (a pipe, a fork, binding a child to its LLC, a counter that will
 * not open on a live child); the load, which ran and failed; no perf
 * counters in this kernel, or none allowed, the one cause of a SKIP.
 */
#define RUN_ERROR	-1
#define RUN_LOAD_FAILED	-2
#define RUN_NO_PERF	-3
#define PERF_PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* Looks @prog up in $PATH, as execvp() would: true and @path if found. */
static bool in_path(const char *prog, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char *copy, *dir, *save;
	bool found = false;

	copy = strdup(env ? env : "/usr/bin:/bin");
	if (!copy)
		return false;
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/%s", dir, prog);
		found = !access(path, X_OK);
	}
	free(copy);
	return found;
}

/*
 * Runs @l once in each LLC, bound to its CPUs, with its output thrown away
 * and its migrations counted. Each child binds itself, says how that went
 * on a pipe of its own, and waits on the common pipe @go while its counter
 * is opened: enable_on_exec starts the counter at the exec and inherit
 * extends it to every thread, whose counts fold into it as they exit.
 * The counter opens on a child known to be alive, so its failure is
 * perf's. The children start together, on one write of a byte each.
 * Returns the sum of the counts and *@secs, the wall-clock time until the
 * last one ended, or one of the RUN_* failures above.
 */
static long counted_run(const struct hb_load *l, double *secs)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_MIGRATIONS,
		.disabled = 1,
		.inherit = 1,
		.enable_on_exec = 1,
	};
	int go[2], ready[2], fd[MAX_CPUS], status, forked = 0, bound;
	long ret = RUN_ERROR;
	const char *why = NULL;
	pid_t pid[MAX_CPUS];
	bool sent = false, load_failed = false;
	long total = 0;
	double t0;

	*secs = 0;
	if (pipe2(go, O_CLOEXEC)) {
		ksft_print_msg("pipe2: %s\n", strerror(errno));
		return RUN_ERROR;
	}
	for (int i = 0; i < l->nr_llcs; i++) {
		if (pipe2(ready, O_CLOEXEC)) {
			ksft_print_msg("pipe2: %s\n", strerror(errno));
			break;
		}
		pid[i] = fork();
		if (pid[i] < 0) {
			ksft_print_msg("fork: %s\n", strerror(errno));
			close(ready[0]);
			close(ready[1]);
			break;
		}
		if (!pid[i]) {
			int null = open("/dev/null", O_WRONLY), e = 0;
			char c;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(go[1]);
			close(ready[0]);
			if (null >= 0) {
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
			}
			if (sched_setaffinity(0, sizeof(l->llc[i]), &l->llc[i]))
				e = errno;
			if (write(ready[1], &e, sizeof(e)) != sizeof(e) || e)
				_exit(125);
			close(ready[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(126);
			execv(l->path, l->argv);
			_exit(127);
		}
		forked++;
		fd[i] = -1;
		close(ready[1]);
		/* EOF: the child died before it could say. */
		if (read(ready[0], &bound, sizeof(bound)) != sizeof(bound))
			bound = -1;
		close(ready[0]);
		if (bound) {
			ksft_print_msg("cannot bind a child to LLC %d of %d: %s\n", i, l->nr_llcs,
				       bound > 0 ? strerror(bound) : "it died first");
			break;
		}
		fd[i] = syscall(__NR_perf_event_open, &attr, pid[i], -1, -1,
				PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0) {
			int e = errno;
			bool none = access(PERF_PARANOID, F_OK);

			/*
			 * No counters in this kernel (it has no
			 * perf_event_paranoid), none allowed here, or
			 * no such counter.
			 */
			if (none || e == EACCES || e == EPERM || e == ENOENT || e == EOPNOTSUPP) {
				ksft_print_msg("perf_event_open: %s%s\n", strerror(e),
					       e == EACCES || e == EPERM ?
					       " (perf_event_paranoid, lockdown?)" :
					       none ? " (CONFIG_PERF_EVENTS=n?)" : "");
				ret = RUN_NO_PERF;
			} else {
				ksft_print_msg("perf_event_open on a waiting child: %s\n",
					       strerror(e));
			}
			break;
		}
	}
	close(go[0]);
	t0 = now();
	/* Without their bytes (a step above failed), all end unrun. */
	if (forked == l->nr_llcs && forked > 0 && fd[forked - 1] >= 0) {
		sent = true;
		for (int i = 0; i < forked; i++)
			sent = sent && write(go[1], "g", 1) == 1;
		if (!sent)
			ksft_print_msg("cannot start %s: write: %s\n", l->path, strerror(errno));
	}
	close(go[1]);
	for (int i = 0; i < forked; i++) {
		uint64_t count = 0;

		if (waitpid(pid[i], &status, 0) != pid[i]) {
			ksft_print_msg("waitpid: %s\n", strerror(errno));
			why = "cannot wait for";
		}
		if (fd[i] < 0)
			continue;
		if (read(fd[i], &count, sizeof(count)) != sizeof(count))
			why = "cannot read the migration counter of";
		close(fd[i]);
		total += count;
		if (!sent || why)
			continue;
		if (WIFSIGNALED(status)) {
			ksft_print_msg("%s killed by signal %d\n", l->path, WTERMSIG(status));
			load_failed = true;
		} else if (WEXITSTATUS(status)) {
			int rc = WEXITSTATUS(status);

			ksft_print_msg("%s exited with %d%s\n", l->path, rc,
				       rc == 127 ? " (exec failed)" : "");
			load_failed = true;
		}
	}
	*secs = now() - t0;
	if (!sent)
		return ret;
	if (why) {
		ksft_print_msg("%s %s\n", why, l->path);
		return RUN_ERROR;
	}
	return load_failed ? RUN_LOAD_FAILED : total;
}

/*
 * rt-tests hackbench with @groups groups of 10 senders and 10 receivers,
 * threads over pipes, 100-byte messages; else perf
 * bench sched messaging, whose groups have 20 senders and 20 receivers:
 * half the groups and half the loops give the same tasks and messages
 * (for an odd @groups, one group more: 40 tasks for one group of 20).
 * NULL, or why neither can run.
 */
static const char *find_load(struct hb_load *l, int groups)
{
	char **a = l->argv;

	if (in_path("hackbench", l->path, sizeof(l->path))) {
		snprintf(l->groups, sizeof(l->groups), "%d", groups);
		snprintf(l->loops, sizeof(l->loops), "%d", HB_LOOPS);
		*a++ = "hackbench";
		*a++ = "-g";
		*a++ = l->groups;
		*a++ = "-f";
		*a++ = "10";
		*a++ = "-s";
		*a++ = "100";
		*a++ = "-l";
		*a++ = l->loops;
		*a++ = "--threads";
		*a++ = "--pipe";
		*a = NULL;
		return NULL;
	}
	if (!in_path("perf", l->path, sizeof(l->path)))
		return "neither hackbench nor perf in PATH: install rt-tests (hackbench)";
	snprintf(l->groups, sizeof(l->groups), "%d", (groups + 1) / 2);
	snprintf(l->loops, sizeof(l->loops), "%d", HB_LOOPS / 2);
	*a++ = "perf";
	*a++ = "bench";
	*a++ = "sched";
	*a++ = "messaging";
	*a++ = "-p";
	*a++ = "-t";
	*a++ = "-g";
	*a++ = l->groups;
	*a++ = "-l";
	*a++ = l->loops;
	*a = NULL;
	return NULL;
}

/* The sum of sis_wake's fit_* and bias_* counts; -1 if unreadable. */
static long sis_wake_decided(void)
{
	static const char * const names[] = {
		"fit_target", "fit_prev", "fit_recent",
		"bias_idle_prev", "bias_last",
	};
	long sum = 0, n;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		n = sis_wake_counted(names[i]);
		if (n < 0)
			return -1;
		sum += n;
	}
	return sum;
}

static void print_runs(const char *side, const double *v)
{
	char line[1024] = "";

	for (int i = 0; i < REPS; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %.0f", v[i]);
	ksft_print_msg("migrations, %s:%s\n", side, line);
}

/*
 * The groups: one per CPUS_PER_GROUP CPUs of an LLC, at least one, in
 * each LLC. Each task sleeps on its pipe whenever it has nothing to read
 * or no room to write, so CPUs are left partly idle at this size. The
 * base then sends a wakee whose target and prev are busy to an idle CPU
 * of the LLC; the fit keeps it on one of them that has room, and the
 * bias on prev when none is idle.
 * SIS_LIMIT_STACKING and SIS_SYNC_SKIP_STACKING, which narrow both (the
 * latter for every wakeup of this load: pipes wake with WF_SYNC), are off
 * for both sides.
 *
 * After a warm-up pair, the sides alternate, on, off, off, on, ..., so
 * that neither always goes first; sis_wake is cleared before each run.
 * The medians, not the means: a single run under an emulator can count
 * far more than the others of its side.
 */
TEST_F_TIMEOUT(placement, hackbench_migrations, 360)
{
	static const char * const f[] = { "UTIL_FITS_CAPACITY", "SELECT_BIAS_PREV" };
	double mig[2][REPS], secs[2][REPS], med[2], t;
	long decided[2] = { 0, 0 }, n, least;
	static struct hb_load load;
	int groups;
	const char *why;

	if (!have_features(f, 2))
		SKIP(return, "a wakeup placement switch is missing from %s", FEATURES);
	if (access(SIS_WAKE, W_OK))
		SKIP(return, "no %s", SIS_WAKE);
	if (read_topology() < 2)
		SKIP(return, "no L3 (cache/index3) in sysfs, or one CPU");
	if (feature_state("UTIL_EST") != 1)
		SKIP(return, "UTIL_EST is off");
	if (asym_capacity())
		SKIP(return, "asymmetric CPU capacity: the wakeup switches do not act here");
	if (write_file(SCHEDSTATS, "1"))
		SKIP(return, "cannot turn schedstats on (CONFIG_SCHEDSTATS=n?)");
	load.nr_llcs = 0;
	for (int c = 0; c < nr_cpus; c++)
		if (cpu_llc[c] == c)
			llc_cpus(c, &load.llc[load.nr_llcs++]);
	groups = llc_weight(0) / CPUS_PER_GROUP;
	if (groups < 1)
		groups = 1;
	why = find_load(&load, groups);
	if (why)
		SKIP(return, "%s", why);
	least = (long)DECIDED_FLOOR * groups * load.nr_llcs * REPS;
	if (feature_state("SIS_LIMIT_STACKING") >= 0)
		ASSERT_EQ(0, set_feature("SIS_LIMIT_STACKING", false));
	if (feature_state("SIS_SYNC_SKIP_STACKING") >= 0)
		ASSERT_EQ(0, set_feature("SIS_SYNC_SKIP_STACKING", false));
	ksft_print_msg("%d CPUs, %d LLCs: %s -g %s -l %s in each, %d runs a side\n",
		       nr_cpus, load.nr_llcs, load.argv[0], load.groups, load.loops, REPS);

	/* r -1 is the warm-up pair; its first run tells if the counter opens. */
	for (int r = -1; r < REPS; r++) {
		for (int side = 0; side < 2; side++) {
			bool on = side == (r & 1);

			for (int i = 0; i < 2; i++)
				ASSERT_EQ(0, set_feature(f[i], on));
			ASSERT_EQ(0, write_file(SIS_WAKE, "0"));
			n = counted_run(&load, &t);
			if (n == RUN_NO_PERF)
				SKIP(return, "no perf counter for the migrations (above)");
			/* A perf without its bench (a distribution's wrapper). */
			if (n == RUN_LOAD_FAILED && r < 0 && !strcmp(load.argv[0], "perf"))
				SKIP(return, "no hackbench, and perf bench fails: %s",
				     "install rt-tests (hackbench)");
			/* The load or a step of the run failed (above). */
			ASSERT_LE(0, n);
			if (r < 0)
				continue;
			mig[on][r] = n;
			secs[on][r] = t;
			n = sis_wake_decided();
			ASSERT_LE(0, n);
			decided[on] += n;
		}
	}
	print_runs("on", mig[1]);
	print_runs("off", mig[0]);
	med[1] = median(mig[1], REPS);
	med[0] = median(mig[0], REPS);
	ksft_print_msg("migrations: median %.1f on, %.1f off, ratio %.3f (bar %.2f)\n",
		       med[1], med[0], med[0] > 0 ? med[1] / med[0] : -1.0, BAR);
	ksft_print_msg("seconds a run, median: %.2f on, %.2f off (indicative only)\n",
		       median(secs[1], REPS), median(secs[0], REPS));
	ksft_print_msg("sis_wake fit_* + bias_*: %ld over the runs on (floor %ld), %ld off\n",
		       decided[1], least, decided[0]);
	/* The cause: the switches decided wakeups, and only while on. */
	EXPECT_LE(least, decided[1]) {
		TH_LOG("%ld decisions with both on: want at least %ld, %d a group and run",
		       decided[1], least, DECIDED_FLOOR);
	}
	EXPECT_EQ(0, decided[0]);
	EXPECT_TRUE(med[0] > 0 && med[1] <= BAR * med[0]) {
		TH_LOG("median migrations %.1f with both, %.1f with neither: want at most %.2f x",
		       med[1], med[0], BAR);
	}
}

TEST_HARNESS_MAIN
