// SPDX-License-Identifier: GPL-2.0
/*
 * The loads only wakeup_test uses: the wakeup scenarios whose placement
 * the wakeup switches change.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../kselftest.h"
#include "placement.h"
#include "wakeup_loads.h"

/* --- wakeups moved, from the tasks' own schedstats ------------------ */

/*
 * Wakeups that put the task on another CPU than it last ran on, and all
 * wakeups, summed over the threads that call wakeups_count() when they
 * start counting (-1) and when they stop (+1). They come from each
 * thread's nr_wakeups_migrate and nr_wakeups in /proc/thread-self/sched,
 * so they count what select_task_rq_fair() chose and nothing the load
 * balancer did.
 */
static atomic_long wk_moved, wk_all;

static long sched_field(const char *buf, const char *name)
{
	size_t len = strlen(name);

	for (const char *l = buf; l; l = strchr(l, '\n')) {
		l += *l == '\n';
		if (!strncmp(l, name, len) && (l[len] == ' ' || l[len] == ':'))
			return atol(strchr(l, ':') + 1);
	}
	return -1;
}

static void wakeups_count(int sign)
{
	char buf[BUF_SIZE * 2];
	long moved = -1, all = -1;

	if (read_file("/proc/thread-self/sched", buf, sizeof(buf)) > 0) {
		moved = sched_field(buf, "nr_wakeups_migrate");
		all = sched_field(buf, "nr_wakeups");
	}
	if (moved < 0 || all < 0) {
		/* Poisons the sums: the measurement fails. */
		atomic_store(&wk_all, LONG_MIN / 2);
		return;
	}
	atomic_fetch_add(&wk_moved, sign * moved);
	atomic_fetch_add(&wk_all, sign * all);
}

static double moved_per_wakeup(void (*load)(void))
{
	long moved, all;

	atomic_store(&wk_moved, 0);
	atomic_store(&wk_all, 0);
	load();
	moved = atomic_load(&wk_moved);
	all = atomic_load(&wk_all);
	if (all < 0 || moved < 0) {
		ksft_print_msg("no nr_wakeups in /proc/thread-self/sched (schedstats off?)\n");
		return -1;
	}
	if (!all) {
		ksft_print_msg("the wakee counted no wakeup\n");
		return -1;
	}
	return (double)moved / all;
}

/* --- wake rounds ---------------------------------------------------- */

/*
 * The rounds are driven by the tasks, not by timers racing each other:
 * under an emulator a timer on an idle CPU can fire up to ~10 ms late,
 * and periodic wakers sharing CPUs by chance gave drops that varied
 * several-fold between runs.
 *
 * Each round the wakee goes back to prev by changing its own affinity (a
 * migration, not a wakeup), waits to be woken, then sleeps FIT_NAP on a
 * timer: a second wakeup, which never moves because its CPU is idle. The
 * nap keeps the tasks' summed util_est low enough to fit on one CPU: under
 * an emulator a wakeup costs about a millisecond of CPU time, and util_est
 * reads several times the duty cycle of a light task. A new task starts
 * with half a CPU's spare capacity as its utilization, which does not
 * fit: the wakee counts its wakeups from WARMUP seconds on, once that has
 * decayed. Moving back to prev every round also keeps recent_used_cpu, an
 * idle candidate that wins over a fit by design, equal to prev.
 */
#define FIT_NAP		0.05
#define FIT_HANDOVER	0.001
#define WARMUP		0.4

static atomic_int fit_stop;

struct wake_round {
	int prev;		/* the wakee goes back there every round */
	int waker_cpu;		/* the waker is pinned there */
	bool resident;		/* wakes a task pinned to prev first */
	bool sync;		/* wakes the wakee through a pipe (WF_SYNC) */
	bool fill;		/* no idle core in the LLC (fill_llc()) */
	cpu_set_t allowed;	/* the wakee's CPUs */
	atomic_int ready, go, resident_go;
	atomic_int resident_on;	/* the resident runs on prev */
	atomic_int woken;	/* the waker has woken the wakee */
	int pipe[2];
};

static void futex_wait(atomic_int *uaddr, int val, double timeout)
{
	struct timespec ts = {
		(time_t)timeout, (long)((timeout - (time_t)timeout) * 1e9)
	};

	syscall(SYS_futex, uaddr, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
}

static void futex_wake(atomic_int *uaddr)
{
	syscall(SYS_futex, uaddr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *round_waker(void *arg)
{
	struct wake_round *wr = arg;

	pin_self(wr->waker_cpu);
	while (!atomic_load(&fit_stop)) {
		/* Sleeps until the wakee is ready, or the end. */
		if (!atomic_exchange(&wr->ready, 0)) {
			futex_wait(&wr->ready, 0, 1);
			continue;
		}
		/* Lets the wakee block first: on prev, this waker preempted it. */
		usleep(FIT_HANDOVER * 1e6);
		if (wr->resident) {
			double until = now() + 0.1;

			atomic_store(&wr->woken, 0);
			atomic_store(&wr->resident_go, 1);
			futex_wake(&wr->resident_go);
			/*
			 * Until it runs, its wakeup may still be pending on
			 * prev, which then has no room for the wakee.
			 */
			while (!atomic_load(&wr->resident_on) && now() < until)
				;
		}
		if (wr->sync) {
			if (write(wr->pipe[1], "w", 1) != 1)
				break;
		} else {
			atomic_store(&wr->go, 1);
			futex_wake(&wr->go);
		}
		/* The wakee has been placed: the resident may stop. */
		atomic_store(&wr->woken, 1);
	}
	return NULL;
}

static void *round_resident(void *arg)
{
	struct wake_round *wr = arg;
	double until;

	pin_self(wr->prev);
	while (!atomic_load(&fit_stop)) {
		if (!atomic_exchange(&wr->resident_go, 0)) {
			futex_wait(&wr->resident_go, 0, 1);
			continue;
		}
		/* Runs on prev until the wakee has been woken, or 20 ms. */
		until = now() + 0.02;
		atomic_store(&wr->resident_on, 1);
		while (!atomic_load(&wr->woken) && now() < until)
			;
		atomic_store(&wr->resident_on, 0);
	}
	return NULL;
}

static void *round_wakee(void *arg)
{
	struct wake_round *wr = arg;
	double start = now();
	bool counting = false;
	char c;

	sched_setaffinity(0, sizeof(wr->allowed), &wr->allowed);
	while (!atomic_load(&fit_stop)) {
		if (sched_getcpu() != wr->prev) {
			pin_self(wr->prev);
			sched_setaffinity(0, sizeof(wr->allowed), &wr->allowed);
		}
		if (!counting && now() >= start + WARMUP) {
			wakeups_count(-1);
			counting = true;
		}
		atomic_store(&wr->ready, 1);
		futex_wake(&wr->ready);
		if (wr->sync) {
			if (read(wr->pipe[0], &c, 1) != 1)
				break;
		} else {
			while (!atomic_exchange(&wr->go, 0) && !atomic_load(&fit_stop))
				futex_wait(&wr->go, 0, 0.1);
		}
		usleep(FIT_NAP * 1e6);
	}
	if (counting)
		wakeups_count(1);
	return NULL;
}

static void *fill_spinner(void *arg)
{
	pin_self((int)(long)arg);
	while (!atomic_load(&fit_stop))
		;
	return NULL;
}

/*
 * Two CPUs of one core that take turns: each spins for a millisecond, then
 * hands over to the other and sleeps. The core is never idle (a CPU whose
 * wakeup is still pending is not idle either), yet each CPU halts half the
 * time, which under an emulator lets it move on to the other virtual CPUs
 * sooner than a spinner that never halts.
 */
struct fill_pair {
	int cpu[2];
	atomic_int turn;
};

struct fill_side {
	struct fill_pair *fp;
	int me;
};

static struct fill_pair fill_pairs[MAX_CPUS / 2];
static struct fill_side fill_sides[MAX_CPUS];

static void *fill_turns(void *arg)
{
	struct fill_side *fs = arg;
	struct fill_pair *fp = fs->fp;

	pin_self(fp->cpu[fs->me]);
	while (!atomic_load(&fit_stop)) {
		if (atomic_load(&fp->turn) != fs->me) {
			futex_wait(&fp->turn, !fs->me, 0.1);
			continue;
		}
		spin_for(0.001);
		atomic_store(&fp->turn, !fs->me);
		futex_wake(&fp->turn);
	}
	return NULL;
}

/*
 * Leaves no idle core in the last CPU's LLC, around the CPUs in @used: a
 * spinner on every other CPU of a core that has one of them, and two CPUs
 * taking turns (fill_turns()) on every other core. select_idle_sibling()
 * takes an idle core, or an idle SMT sibling of the CPU it could fit the
 * wakee on, before any fit; the tests of the fit need neither to be there.
 * Without SMT there is no idle-core search, and the other cores are left
 * alone. The threads stop with fit_stop. Returns the number started in @t.
 */
static int fill_llc(const cpu_set_t *used, pthread_t *t)
{
	int n = 0, pairs = 0, llc = cpu_llc[nr_cpus - 1];

	for (long c = 0; c < nr_cpus; c++) {
		bool core_used = false;
		int sib = -1;

		if (cpu_llc[c] != llc || CPU_ISSET(c, used) || cpu_offline(c))
			continue;
		for (int o = 0; o < nr_cpus; o++) {
			core_used |= cpu_core[o] == cpu_core[c] && CPU_ISSET(o, used);
			if (o != c && cpu_core[o] == cpu_core[c] && sib < 0)
				sib = o;
		}
		if (core_used) {
			if (!pthread_create(&t[n], NULL, fill_spinner, (void *)c))
				n++;
		} else if (cpu_core[c] == c && sib >= 0) {
			struct fill_pair *fp = &fill_pairs[pairs++];

			fp->cpu[0] = c;
			fp->cpu[1] = sib;
			atomic_store(&fp->turn, 0);
			for (int me = 0; me < 2; me++) {
				fill_sides[n] = (struct fill_side){ fp, me };
				if (!pthread_create(&t[n], NULL, fill_turns, &fill_sides[n]))
					n++;
			}
		}
	}
	return n;
}

/* Runs @n rounds side by side for WARMUP and one second. */
static void wake_rounds_run(struct wake_round *wr, int n)
{
	pthread_t waker[2], wakee[2], resident[2], filler[MAX_CPUS];
	int nr_fill = 0;
	ssize_t w;

	for (int i = 0; i < n; i++) {
		if (pipe(wr[i].pipe)) {
			while (i--) {
				close(wr[i].pipe[0]);
				close(wr[i].pipe[1]);
			}
			return;
		}
	}
	atomic_store(&fit_stop, 0);
	if (wr[0].fill) {
		cpu_set_t used;

		CPU_ZERO(&used);
		for (int i = 0; i < n; i++) {
			CPU_OR(&used, &used, &wr[i].allowed);
			CPU_SET(wr[i].prev, &used);
			CPU_SET(wr[i].waker_cpu, &used);
		}
		nr_fill = fill_llc(&used, filler);
	}
	for (int i = 0; i < n; i++) {
		atomic_store(&wr[i].ready, 0);
		atomic_store(&wr[i].go, 0);
		atomic_store(&wr[i].resident_go, 0);
		if (wr[i].resident)
			pthread_create(&resident[i], NULL, round_resident, &wr[i]);
		pthread_create(&wakee[i], NULL, round_wakee, &wr[i]);
		pthread_create(&waker[i], NULL, round_waker, &wr[i]);
	}
	usleep((WARMUP + 1) * 1e6);
	atomic_store(&fit_stop, 1);
	for (int i = 0; i < n; i++) {
		/* The waker and the resident may sleep on their futex. */
		futex_wake(&wr[i].ready);
		futex_wake(&wr[i].resident_go);
		pthread_join(waker[i], NULL);
		/* A sync wakee may be blocked on the pipe. */
		w = write(wr[i].pipe[1], "s", 1);
		(void)w;
		pthread_join(wakee[i], NULL);
		if (wr[i].resident)
			pthread_join(resident[i], NULL);
		close(wr[i].pipe[0]);
		close(wr[i].pipe[1]);
	}
	while (nr_fill)
		pthread_join(filler[--nr_fill], NULL);
}

int last_llc_cores(int *cpus, int max)
{
	int n = 0;

	for (int c = 0; c < nr_cpus && n < max; c++)
		if (cpu_llc[c] == cpu_llc[nr_cpus - 1] && cpu_core[c] == c)
			cpus[n++] = c;
	return n;
}

/*
 * Two CPUs a and b of one LLC on cores of their own, in an LLC with no
 * idle core; a waker pinned to a and a wakee allowed on a and b, woken
 * through a futex: a plain wakeup from prev, so prev is also the target,
 * busy with one task. The base scans {a, b} and moves the wakee to b;
 * UTIL_FITS_CAPACITY sees one task running on a, the wakee fitting next
 * to it, and keeps it on a. With the nap's wakeup, half the wakeups move
 * with the switch off, none with it on. Two such pairs of CPUs when the
 * LLC has four cores.
 */
static void busy_prev_load(void)
{
	struct wake_round wr[2];
	int cpus[4], n = last_llc_cores(cpus, 4) / 2;

	memset(wr, 0, sizeof(wr));
	for (int i = 0; i < n; i++) {
		wr[i].fill = true;
		wr[i].prev = cpus[2 * i];
		wr[i].waker_cpu = cpus[2 * i];
		CPU_ZERO(&wr[i].allowed);
		CPU_SET(cpus[2 * i], &wr[i].allowed);
		CPU_SET(cpus[2 * i + 1], &wr[i].allowed);
	}
	wake_rounds_run(wr, n);
}

double busy_prev_moved(void)
{
	return moved_per_wakeup(busy_prev_load);
}

/*
 * busy_prev_load() with the wakee allowed on prev and on prev's idle SMT
 * sibling: the base moves the wakee to the sibling, UTIL_FITS_CAPACITY
 * keeps it on prev, which has room, and SIS_LIMIT_STACKING moves it to
 * the sibling again: an idle CPU sharing the core comes first.
 */
static void idle_sibling_load(void)
{
	struct wake_round wr;
	int cpus[1];

	if (last_llc_cores(cpus, 1) < 1)
		return;
	memset(&wr, 0, sizeof(wr));
	wr.fill = true;
	wr.prev = cpus[0];
	wr.waker_cpu = cpus[0];
	CPU_ZERO(&wr.allowed);
	for (int c = 0; c < nr_cpus; c++)
		if (cpu_core[c] == cpus[0])
			CPU_SET(c, &wr.allowed);
	wake_rounds_run(&wr, 1);
}

double idle_sibling_moved(void)
{
	return moved_per_wakeup(idle_sibling_load);
}

/*
 * A sync wakeup from another CPU of the LLC, with prev busy. Two CPUs p
 * and t on cores of their own in an LLC with no idle core; a waker pinned
 * to t, a resident pinned to p, and a wakee allowed on p and t. Each
 * round the waker wakes the resident on p, waits until it runs, then
 * writes to the wakee's pipe. A pipe write is a sync wakeup, and the
 * waker runs alone on t, so wake_affine() picks t as the target, while p
 * runs the resident, one light task:
 *  - neither switch: nothing the wakee may use is idle, and it goes to
 *    target, t;
 *  - SELECT_BIAS_PREV alone: the search finds nothing idle, and the wakee
 *    stays on prev, p;
 *  - UTIL_FITS_CAPACITY: the wakee has room on target, t, and goes there
 *    (or stays on p when t has no room left);
 *  - both: SELECT_BIAS_PREV tries prev first for the fit, and the wakee
 *    stays on p;
 *  - both with SIS_SYNC_SKIP_STACKING: the wakeup is sync, so there is no
 *    fit and no fall back to p, and the wakee goes to t, as with neither.
 * With the nap's wakeup, half the wakeups move, except with both
 * switches (and not the sync mode), where none should.
 */
static void waker_prev_load(void)
{
	struct wake_round wr;
	int cpus[2];

	if (last_llc_cores(cpus, 2) < 2)
		return;
	memset(&wr, 0, sizeof(wr));
	wr.resident = true;
	wr.sync = true;
	wr.fill = true;
	wr.prev = cpus[0];
	wr.waker_cpu = cpus[1];
	CPU_ZERO(&wr.allowed);
	CPU_SET(cpus[0], &wr.allowed);
	CPU_SET(cpus[1], &wr.allowed);
	wake_rounds_run(&wr, 1);
}

double waker_prev_moved(void)
{
	return moved_per_wakeup(waker_prev_load);
}

/* --- a fair task beside an RT task ---------------------------------- */

/*
 * Two CPUs r and x on cores of their own, in an LLC with no idle core.
 * A SCHED_FIFO task pinned to r runs 2 ms out of every 10; a fair task
 * allowed on r and x goes back to r after each wakeup (a migration, not a
 * wakeup) and wakes every 2 ms on its timer, a wakeup whose target is its
 * prev, r. While the RT task runs, r has no room for a fair task and the
 * wakee goes to x; while it sleeps, r is idle and the wakee stays. A fit
 * that counted only the fair class on r would keep it on r behind the RT
 * task every time.
 */
static atomic_long rt_on_r, rt_all;
static atomic_bool rt_failed;

static void *rt_duty(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };

	pin_self((int)(long)arg);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		atomic_store(&rt_failed, true);
		return NULL;
	}
	while (!atomic_load(&fit_stop)) {
		spin_for(0.002);
		usleep(8000);
	}
	return NULL;
}

static void *rt_wakee(void *arg)
{
	const int *cpus = arg;
	double start = now();
	long on_r = 0, all = 0;
	cpu_set_t both;

	CPU_ZERO(&both);
	CPU_SET(cpus[0], &both);
	CPU_SET(cpus[1], &both);
	while (!atomic_load(&fit_stop)) {
		if (sched_getcpu() != cpus[0]) {
			pin_self(cpus[0]);
			sched_setaffinity(0, sizeof(both), &both);
		}
		usleep(2000);
		if (now() < start + WARMUP)
			continue;
		on_r += sched_getcpu() == cpus[0];
		all++;
	}
	atomic_fetch_add(&rt_on_r, on_r);
	atomic_fetch_add(&rt_all, all);
	return NULL;
}

double rt_cpu_share(void)
{
	pthread_t rt, wakee, filler[MAX_CPUS];
	int cpus[2], nr_fill;
	cpu_set_t used;

	if (last_llc_cores(cpus, 2) < 2)
		return -1;
	atomic_store(&rt_on_r, 0);
	atomic_store(&rt_all, 0);
	atomic_store(&rt_failed, false);
	atomic_store(&fit_stop, 0);
	CPU_ZERO(&used);
	CPU_SET(cpus[0], &used);
	CPU_SET(cpus[1], &used);
	nr_fill = fill_llc(&used, filler);
	pthread_create(&rt, NULL, rt_duty, (void *)(long)cpus[0]);
	pthread_create(&wakee, NULL, rt_wakee, cpus);
	usleep((WARMUP + 1) * 1e6);
	atomic_store(&fit_stop, 1);
	pthread_join(wakee, NULL);
	pthread_join(rt, NULL);
	while (nr_fill)
		pthread_join(filler[--nr_fill], NULL);
	if (atomic_load(&rt_failed)) {
		ksft_print_msg("cannot make a task SCHED_FIFO\n");
		return -1;
	}
	if (!atomic_load(&rt_all))
		return -1;
	return (double)atomic_load(&rt_on_r) / atomic_load(&rt_all);
}

/* --- a 1:1 pair ----------------------------------------------------- */

/*
 * Two threads allowed on the last CPU's LLC hand a byte back and forth
 * through two pipes (sync wakeups). Each side notes its CPU before it
 * writes; the woken side counts the wakeup as stacked when it runs on the
 * CPU its waker noted. The first WARMUP seconds are not counted.
 */
static atomic_long pair_nr_stacked, pair_all;

struct pair_side {
	int rd, wr;
	atomic_int *my_cpu, *peer_cpu;
	cpu_set_t *allowed;
	double start;
};

static void *pair_side_run(void *arg)
{
	struct pair_side *ps = arg;
	long stacked = 0, all = 0;
	char c = 1;

	sched_setaffinity(0, sizeof(*ps->allowed), ps->allowed);
	while (read(ps->rd, &c, 1) == 1 && c) {
		if (now() >= ps->start + WARMUP) {
			stacked += sched_getcpu() == atomic_load(ps->peer_cpu);
			all++;
		}
		c = now() < ps->start + WARMUP + 1;
		atomic_store(ps->my_cpu, sched_getcpu());
		if (write(ps->wr, &c, 1) != 1 || !c)
			break;
	}
	atomic_fetch_add(&pair_nr_stacked, stacked);
	atomic_fetch_add(&pair_all, all);
	return NULL;
}

double pair_stacked(void)
{
	atomic_int cpu[2] = { -1, -1 };
	struct pair_side ps[2];
	pthread_t t[2];
	cpu_set_t llc;
	int fds[4];
	char c = 1;

	atomic_store(&pair_nr_stacked, 0);
	atomic_store(&pair_all, 0);
	CPU_ZERO(&llc);
	for (int i = 0; i < nr_cpus; i++)
		if (cpu_llc[i] == cpu_llc[nr_cpus - 1])
			CPU_SET(i, &llc);
	if (pipe_pair(fds))
		return -1;
	/* Side 0 reads fds[0] and writes fds[3]; side 1 reads fds[2], writes fds[1]. */
	ps[0] = (struct pair_side){ fds[0], fds[3], &cpu[0], &cpu[1], &llc, now() };
	ps[1] = (struct pair_side){ fds[2], fds[1], &cpu[1], &cpu[0], &llc, now() };
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, pair_side_run, &ps[i]);
	if (write(fds[1], &c, 1) != 1) {
		c = 0;
		if (write(fds[3], &c, 1) != 1)
			return -1;
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	if (!atomic_load(&pair_all))
		return -1;
	return (double)atomic_load(&pair_nr_stacked) / atomic_load(&pair_all);
}
