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
	bool want;
};

/*
 * The fields of struct sis_room, in order: nr_running (every class),
 * h_nr_queued and h_nr_runnable (fair tasks with and without those in
 * delayed dequeue), ttwu_pending, util_est, capacity. fits_capacity()
 * keeps 20% free: a sum s fits capacity c when s * 1280 < c * 1024, so
 * 819 is the most that fits 1024, and 560 does not fit 700 (716800 on
 * both sides).
 */
static const struct room_case room_cases[] = {
	{ "one light fair task: room",
	  { 1, 1, 1, 0,  100, 1024 },  100, true  },
	{ "sum at the 20% margin: room",
	  { 1, 1, 1, 0,  400, 1024 },  419, true  },
	{ "sum one past the margin: no room",
	  { 1, 1, 1, 0,  400, 1024 },  420, false },
	{ "RT pressure on capacity, just fits: room",
	  { 1, 1, 1, 0,  300,  700 },  259, true  },
	{ "RT pressure on capacity, boundary: no room",
	  { 1, 1, 1, 0,  300,  700 },  260, false },
	{ "an RT task runs, no fair task: no room",
	  { 1, 0, 0, 0,    0, 1024 },    1, false },
	{ "an RT task queued beside a fair task: no room",
	  { 2, 1, 1, 0,  100, 1024 },    1, false },
	{ "two runnable fair tasks, light: no room",
	  { 2, 2, 2, 0,   60, 1024 },   10, false },
	{ "one fair task and a delayed one: room",
	  { 2, 2, 1, 0,  100, 1024 },  100, true  },
	{ "only a delayed task: room",
	  { 1, 1, 0, 0,    0, 1024 },  100, true  },
	{ "a wakeup pending: no room",
	  { 1, 1, 1, 1,  100, 1024 },  100, false },
	{ "no capacity left: no room",
	  { 1, 1, 1, 0,    0,    0 },    0, false },
};

KUNIT_ARRAY_PARAM_DESC(room, room_cases, name);

static void sis_has_room_test(struct kunit *test)
{
	const struct room_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->want, sis_has_room(&c->room, c->task_util));
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
