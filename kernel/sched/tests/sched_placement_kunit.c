// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the placement decisions of the fair class.
 *
 * Included at the end of kernel/sched/fair.c when
 * CONFIG_SCHED_PLACEMENT_KUNIT_TEST is set, so that the static helpers can
 * be reached.
 */
#include <kunit/test.h>

struct sis_depth_case {
	const char *name;
	unsigned long sum_util;
	unsigned int llc_weight;
	unsigned int small_llc;
	int want;
};

/*
 * imbalance_pct 117 makes the untruncated depth y of equation [4] of
 * sis_idle_scan_depth() reach 0 near 85% utilization, but the depth in
 * CPUs, y * llc_weight / 1024, is truncated and reaches 0 earlier: past
 * x' = 758 (74.0%) on 4 CPUs, 819 (80.0%) on 8 and 847 (82.7%) on 16
 * (x' = sum_util / llc_weight). SIS_SMALL_LLC keeps that cutoff and
 * below it raises the depth to at least small_llc CPUs, so the whole of
 * an LLC of at most small_llc CPUs, up to those points and nothing past
 * them. At 50% busy (x' = 512), y = 1024 - 350 = 674, which gives 2 of
 * 4, 5 of 8, 10 of 16 and 21 of 32 CPUs; at 80.0% (x' = 819),
 * y = 1024 - 896 = 128, which gives 2 of 16 and 4 of 32.
 */
static const struct sis_depth_case sis_depth_cases[] = {
	{ "idle 4-CPU LLC",			0,	   4,  0,  4 },
	{ "idle 4-CPU LLC, floor 16",		0,	   4, 16,  4 },
	{ "half busy 4-CPU LLC",		4 * 512,   4,  0,  2 },
	{ "half busy 4-CPU LLC, floor 16",	4 * 512,   4, 16,  4 },
	{ "half busy 8-CPU LLC, floor 7",	8 * 512,   8,  7,  7 },
	{ "half busy 8-CPU LLC, floor 4",	8 * 512,   8,  4,  5 },
	{ "half busy 16-CPU LLC",		16 * 512, 16,  0, 10 },
	{ "half busy 16-CPU LLC, floor 16",	16 * 512, 16, 16, 16 },
	{ "half busy 32-CPU LLC, floor 16",	32 * 512, 32, 16, 21 },
	{ "16-CPU LLC at 80.0%",		16 * 819, 16,  0,  2 },
	{ "16-CPU LLC at 80.0%, floor 4",	16 * 819, 16,  4,  4 },
	{ "32-CPU LLC at 80.0%",		32 * 819, 32,  0,  4 },
	{ "32-CPU LLC at 80.0%, floor 16",	32 * 819, 32, 16, 16 },
	{ "86% busy, proportional",		4 * 880,   4,  0,  0 },
	{ "86% busy, floor 16 keeps cutoff",	4 * 880,   4, 16,  0 },
	{ "overloaded LLC, floor 16",		4 * 2048,  4, 16,  0 },
	{ "4-CPU LLC at 74.0%, floor 16",	4 * 758,   4, 16,  4 },
	{ "4-CPU LLC past 74.0%, floor 16",	4 * 759,   4, 16,  0 },
	{ "8-CPU LLC at 80.0%, floor 16",	8 * 819,   8, 16,  8 },
	{ "8-CPU LLC past 80.0%, floor 16",	8 * 820,   8, 16,  0 },
	{ "16-CPU LLC at 82.7%, floor 16",	16 * 847, 16, 16, 16 },
	{ "16-CPU LLC past 82.7%, floor 16",	16 * 848, 16, 16,  0 },
};

KUNIT_ARRAY_PARAM_DESC(sis_depth, sis_depth_cases, name);

static void sis_idle_scan_depth_test(struct kunit *test)
{
	const struct sis_depth_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->want,
			sis_idle_scan_depth(c->sum_util, c->llc_weight, 117,
					    c->small_llc));
}

struct room_case {
	const char *name;
	struct sis_room room;
	unsigned long task_util;
	enum sis_room_verdict want;		/* UTIL_FITS_CAPACITY */
	enum sis_room_verdict want_limit;	/* and SIS_LIMIT_STACKING */
};

#define R_FITS    SIS_ROOM_FITS
#define R_CLASS   SIS_ROOM_CLASS
#define R_PENDING SIS_ROOM_PENDING
#define R_UTIL    SIS_ROOM_UTIL
#define R_QUEUE   SIS_ROOM_QUEUE

/*
 * The fields of struct sis_room, in order: nr_running (every class),
 * h_nr_queued and h_nr_runnable (fair tasks with and without those in
 * delayed dequeue), ttwu_pending, util_est, capacity. fits_capacity()
 * keeps 20% free: a sum s fits capacity c when s * 1280 < c * 1024, so
 * 819 is the most that fits 1024, and 560 does not fit 700 (716800 on
 * both sides). The original rule has no bound on the queue: three light
 * tasks leave room; SIS_LIMIT_STACKING allows one runnable task.
 */
static const struct room_case room_cases[] = {
	{ "one light fair task",
	  { 1, 1, 1, 0,  100, 1024 },  100, R_FITS,    R_FITS    },
	{ "sum at the 20% margin",
	  { 1, 1, 1, 0,  400, 1024 },  419, R_FITS,    R_FITS    },
	{ "sum one past the margin",
	  { 1, 1, 1, 0,  400, 1024 },  420, R_UTIL,    R_UTIL    },
	{ "RT pressure on capacity, just fits",
	  { 1, 1, 1, 0,  300,  700 },  259, R_FITS,    R_FITS    },
	{ "RT pressure on capacity, boundary",
	  { 1, 1, 1, 0,  300,  700 },  260, R_UTIL,    R_UTIL    },
	{ "an RT task runs, no fair task",
	  { 1, 0, 0, 0,    0, 1024 },    1, R_CLASS,   R_CLASS   },
	{ "an RT task queued beside a fair task",
	  { 2, 1, 1, 0,  100, 1024 },    1, R_CLASS,   R_CLASS   },
	{ "two runnable fair tasks, light",
	  { 2, 2, 2, 0,   60, 1024 },   10, R_FITS,    R_QUEUE   },
	{ "three runnable fair tasks, light",
	  { 3, 3, 3, 0,  300, 1024 },  100, R_FITS,    R_QUEUE   },
	{ "two runnable fair tasks, heavy",
	  { 2, 2, 2, 0,  800, 1024 },  100, R_UTIL,    R_QUEUE   },
	{ "one fair task and a delayed one",
	  { 2, 2, 1, 0,  100, 1024 },  100, R_FITS,    R_FITS    },
	{ "only a delayed task",
	  { 1, 1, 0, 0,    0, 1024 },  100, R_FITS,    R_FITS    },
	{ "a wakeup pending",
	  { 1, 1, 1, 1,  100, 1024 },  100, R_PENDING, R_PENDING },
	{ "an RT task and a wakeup pending",
	  { 2, 1, 1, 1,  100, 1024 },  100, R_CLASS,   R_CLASS   },
	{ "no capacity left",
	  { 1, 1, 1, 0,    0,    0 },    0, R_UTIL,    R_UTIL    },
};

KUNIT_ARRAY_PARAM_DESC(room, room_cases, name);

static void sis_has_room_test(struct kunit *test)
{
	const struct room_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->want,
			sis_has_room(&c->room, c->task_util, false));
	KUNIT_EXPECT_EQ(test, c->want_limit,
			sis_has_room(&c->room, c->task_util, true));
}

struct room_order_case {
	const char *name;
	int prev, recent;	/* target is CPU 1 */
	bool prev_llc, recent_llc;	/* they share target's LLC */
	bool bias;		/* SELECT_BIAS_PREV */
	int n, want[SIS_ROOM_MAX];
};

/*
 * The CPUs the fit tries, in order: target (CPU 1), prev and the recently
 * used CPU, or prev first with SELECT_BIAS_PREV; prev and recent only in
 * target's LLC and only once: prev equal to target, or recent equal to
 * either, is not tried again.
 */
static const struct room_order_case room_order_cases[] = {
	{ "all three",			2, 3, true,  true,  false, 3, { 1, 2, 3 } },
	{ "all three, bias",		2, 3, true,  true,  true,  3, { 2, 1, 3 } },
	{ "prev in another LLC",	2, 3, false, true,  false, 2, { 1, 3 } },
	{ "prev in another LLC, bias",	2, 3, false, true,  true,  2, { 1, 3 } },
	{ "recent in another LLC, bias", 2, 3, true, false, true,  2, { 2, 1 } },
	{ "prev is target",		1, 3, true,  true,  false, 2, { 1, 3 } },
	{ "prev is target, bias",	1, 3, true,  true,  true,  2, { 1, 3 } },
	{ "recent is prev",		2, 2, true,  true,  true,  2, { 2, 1 } },
	{ "recent is target",		2, 1, true,  true,  false, 2, { 1, 2 } },
	{ "target only",		1, 1, true,  true,  true,  1, { 1 } },
	{ "neither shares the LLC",	2, 3, false, false, true,  1, { 1 } },
};

KUNIT_ARRAY_PARAM_DESC(room_order, room_order_cases, name);

static void sis_room_order_test(struct kunit *test)
{
	const struct room_order_case *c = test->param_value;
	int cpus[SIS_ROOM_MAX], n, i;

	n = sis_room_order(cpus, 1, c->prev, c->prev_llc, c->recent,
			   c->recent_llc, c->bias);
	KUNIT_ASSERT_EQ(test, c->n, n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, c->want[i], cpus[i]);
}

#ifdef CONFIG_NUMA
struct numa_imb_case {
	const char *name;
	bool pinned;		/* NUMA_IMB_PINNED */
	unsigned int imb_numa_nr;
	int allowed;		/* of the local group's 4 CPUs; -1: every CPU */
	int dst_running;	/* local group's running tasks, the new one included */
	int imbalance;		/* idle CPU difference between the groups */
	unsigned int want_nr;
	bool want_local;	/* adjust_numa_imbalance() returns 0 */
};

/*
 * The stream case of the cap: imb_numa_nr is 4 but the task may use only
 * 2 CPUs of its local group. With NUMA_IMB_PINNED the third thread leaves
 * the node; without it, it stays and the threads stack on 2 CPUs. A task
 * that may use none of the local CPUs gets no imbalance at all.
 */
static const struct numa_imb_case numa_imb_cases[] = {
	{ "pinned, 2nd thread stays local",	 true,  4,  2, 2, 1, 2, true  },
	{ "pinned, 3rd thread spreads",		 true,  4,  2, 3, 2, 2, false },
	{ "pinned, switch off: 3rd stays",	 false, 4,  2, 3, 2, 4, true  },
	{ "every CPU, 3rd thread stays local",	 true,  4, -1, 3, 2, 4, true  },
	{ "every CPU, 5th thread spreads",	 true,  4, -1, 5, 4, 4, false },
	{ "imb_numa_nr below the allowed CPUs",	 true,  2,  3, 3, 2, 2, false },
	{ "no allowed CPU in the local group",	 true,  4,  0, 1, 1, 0, false },
};

KUNIT_ARRAY_PARAM_DESC(numa_imb, numa_imb_cases, name);

/*
 * A made-up task with an empty cpumask of its own (p->cpus_ptr is const, so
 * the test keeps the writable pointer), and a local group of CPUs 0 to
 * span - 1 whose group_weight is weight: what task_cpus_in_group() and
 * task_numa_imb_nr() read of the two.
 */
struct fake_numa {
	struct task_struct *p;
	struct cpumask *mask;
	struct sched_group *sg;
};

static void fake_numa_init(struct kunit *test, struct fake_numa *f,
			   unsigned int span, unsigned int weight)
{
	unsigned int cpu;

	f->p = kunit_kzalloc(test, sizeof(*f->p), GFP_KERNEL);
	f->mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	f->sg = kunit_kzalloc(test, sizeof(*f->sg) + cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->p);
	KUNIT_ASSERT_NOT_NULL(test, f->mask);
	KUNIT_ASSERT_NOT_NULL(test, f->sg);
	for (cpu = 0; cpu < span; cpu++)
		cpumask_set_cpu(cpu, sched_group_span(f->sg));
	f->sg->group_weight = weight;
	f->p->cpus_ptr = f->mask;
}

/*
 * task_cpus_in_group() walks the task's mask only when it is not full. The
 * group's weight is set to a sentinel that no count of a real mask can
 * equal, so the result shows which way the count was made: a full mask
 * gives the sentinel, any other mask its CPUs in the group, here CPUs 0
 * and 1. With the guard it replaced (nr_cpus_allowed != NR_CPUS) a full
 * mask was walked on every kernel whose nr_cpu_ids is below NR_CPUS.
 */
static void task_cpus_in_group_test(struct kunit *test)
{
	const unsigned int sentinel = 100000;
	struct fake_numa f;

	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs nr_cpu_ids >= 3");
	fake_numa_init(test, &f, 2, sentinel);

	/* Every CPU: the group's weight, and the mask is not walked. */
	cpumask_setall(f.mask);
	f.p->nr_cpus_allowed = nr_cpu_ids;
	KUNIT_EXPECT_EQ(test, sentinel, task_cpus_in_group(f.p, f.sg));

	/* Every CPU but the last: walked, both CPUs of the group. */
	cpumask_clear_cpu(nr_cpu_ids - 1, f.mask);
	f.p->nr_cpus_allowed = nr_cpu_ids - 1;
	KUNIT_EXPECT_EQ(test, 2, task_cpus_in_group(f.p, f.sg));

	/* Pinned to CPU 1: one CPU of the group. */
	cpumask_clear(f.mask);
	cpumask_set_cpu(1, f.mask);
	f.p->nr_cpus_allowed = 1;
	KUNIT_EXPECT_EQ(test, 1, task_cpus_in_group(f.p, f.sg));

	/* Pinned to CPU 2, outside the group: none. */
	cpumask_clear(f.mask);
	cpumask_set_cpu(2, f.mask);
	KUNIT_EXPECT_EQ(test, 0, task_cpus_in_group(f.p, f.sg));
}

/*
 * task_numa_imb_nr() and adjust_numa_imbalance() together, as
 * sched_balance_find_dst_group() calls them, for a made-up task and local
 * group of CPUs 0-3. A task with no allowed CPU in the group is pinned to
 * the last CPU instead.
 */
static void task_numa_imb_nr_test(struct kunit *test)
{
	const struct numa_imb_case *c = test->param_value;
	struct fake_numa f;
	unsigned int nr;
	int cpu;

	if (nr_cpu_ids < 5)
		kunit_skip(test, "needs nr_cpu_ids >= 5");
	fake_numa_init(test, &f, 4, 4);
	if (c->allowed < 0) {
		cpumask_setall(f.mask);
		f.p->nr_cpus_allowed = nr_cpu_ids;
	} else {
		if (c->allowed == 0)
			cpumask_set_cpu(nr_cpu_ids - 1, f.mask);
		for (cpu = 0; cpu < c->allowed; cpu++)
			cpumask_set_cpu(cpu, f.mask);
		f.p->nr_cpus_allowed = cpumask_weight(f.mask);
	}

	nr = task_numa_imb_nr(f.p, f.sg, c->imb_numa_nr, c->pinned);

	KUNIT_EXPECT_EQ(test, c->want_nr, nr);
	KUNIT_EXPECT_EQ(test, c->want_local,
			!adjust_numa_imbalance(c->imbalance, c->dst_running,
					       nr));
}
#endif /* CONFIG_NUMA */

static struct kunit_case sched_placement_test_cases[] = {
	KUNIT_CASE_PARAM(sis_idle_scan_depth_test, sis_depth_gen_params),
	KUNIT_CASE_PARAM(sis_has_room_test, room_gen_params),
	KUNIT_CASE_PARAM(sis_room_order_test, room_order_gen_params),
#ifdef CONFIG_NUMA
	KUNIT_CASE_PARAM(task_numa_imb_nr_test, numa_imb_gen_params),
	KUNIT_CASE(task_cpus_in_group_test),
#endif
	{}
};

static struct kunit_suite sched_placement_test_suite = {
	.name = "sched_placement",
	.test_cases = sched_placement_test_cases,
};

kunit_test_suite(sched_placement_test_suite);
