// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the placement arithmetic of the fair class.
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
 * (x' = sum_util / llc_weight). SIS_SMALL_LLC keeps that cutoff, so the
 * small rule scans the whole LLC up to those points and nothing past
 * them. At 50% busy (x' = 512), y = 1024 - 350 = 674, which gives 2 of
 * 4, 5 of 8, 10 of 16 and 21 of 32 CPUs.
 */
static const struct sis_depth_case sis_depth_cases[] = {
	{ "idle 4-CPU LLC",			0,	   4,  0,  4 },
	{ "idle 4-CPU LLC, small rule",		0,	   4, 16,  4 },
	{ "half busy 4-CPU LLC",		4 * 512,   4,  0,  2 },
	{ "half busy 4-CPU LLC, small rule",	4 * 512,   4, 16,  4 },
	{ "half busy 8-CPU LLC, limit 7",	8 * 512,   8,  7,  5 },
	{ "half busy 16-CPU LLC",		16 * 512, 16,  0, 10 },
	{ "half busy 16-CPU LLC, limit 16",	16 * 512, 16, 16, 16 },
	{ "half busy 32-CPU LLC, limit 16",	32 * 512, 32, 16, 21 },
	{ "86% busy, proportional",		4 * 880,   4,  0,  0 },
	{ "86% busy, small rule keeps cutoff",	4 * 880,   4, 16,  0 },
	{ "overloaded LLC, small rule",		4 * 2048,  4, 16,  0 },
	{ "4-CPU LLC at 74.0%, small rule",	4 * 758,   4, 16,  4 },
	{ "4-CPU LLC past 74.0%, small rule",	4 * 759,   4, 16,  0 },
	{ "8-CPU LLC at 80.0%, small rule",	8 * 819,   8, 16,  8 },
	{ "8-CPU LLC past 80.0%, small rule",	8 * 820,   8, 16,  0 },
	{ "16-CPU LLC at 82.7%, small rule",	16 * 847, 16, 16, 16 },
	{ "16-CPU LLC past 82.7%, small rule",	16 * 848, 16, 16,  0 },
};

KUNIT_ARRAY_PARAM_DESC(sis_depth, sis_depth_cases, name);

static void sis_idle_scan_depth_test(struct kunit *test)
{
	const struct sis_depth_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->want,
			sis_idle_scan_depth(c->sum_util, c->llc_weight, 117,
					    c->small_llc));
}

struct fit_case {
	const char *name;
	unsigned int nr_running;
	unsigned long rq_util_est;
	unsigned long task_util;
	unsigned long capacity;
	bool want;
};

/*
 * fits_capacity() keeps 20% free: a sum s fits capacity c when
 * s * 1280 < c * 1024, so 819 is the most that fits 1024, and 560 does
 * not fit 700 (716800 on both sides). 446 stands for the little CPU of an
 * asymmetric system; the same load fits its big sibling. A CPU with a
 * task queued behind the running one has no room, however light the
 * tasks are.
 */
static const struct fit_case fit_cases[] = {
	{ "idle CPU, small task",		0,    0,   1, 1024, true  },
	{ "no capacity left",			0,    0,   0,    0, false },
	{ "sum at the 20% margin",		1,  400, 419, 1024, true  },
	{ "sum one past the margin",		1,  400, 420, 1024, false },
	{ "sum at capacity",			1,  512, 512, 1024, false },
	{ "runqueue alone past capacity",	1, 1100,   0, 1024, false },
	{ "RT pressure, just fits",		1,  300, 259,  700, true  },
	{ "RT pressure, boundary",		1,  300, 260,  700, false },
	{ "asymmetric: little CPU, fits",	1,  100, 200,  446, true  },
	{ "asymmetric: little CPU, too big",	1,  200, 200,  446, false },
	{ "asymmetric: big CPU, same load",	1,  200, 200, 1024, true  },
	{ "one task queued, light load",	2,   50,  10, 1024, false },
	{ "three tasks, light load",		3,   30,  10, 1024, false },
};

KUNIT_ARRAY_PARAM_DESC(fit, fit_cases, name);

static void util_fits_remaining_test(struct kunit *test)
{
	const struct fit_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->want,
			util_fits_remaining(c->nr_running, c->rq_util_est,
					    c->task_util, c->capacity));
}

#ifdef CONFIG_NUMA
struct numa_cap_case {
	const char *name;
	unsigned int imb_numa_nr;
	unsigned int allowed_local;
	int dst_running;	/* local group's running tasks, the new one included */
	int imbalance;		/* idle CPU difference between the groups */
	unsigned int want_cap;
	bool want_local;	/* adjust_numa_imbalance() returns 0 */
};

/*
 * The stream scenario: imb_numa_nr is 4 but the task may use only 2 CPUs
 * of each node. The third thread must leave the node; without the cap
 * (allowed_local >= imb_numa_nr) it would stay and stack.
 */
static const struct numa_cap_case numa_cap_cases[] = {
	{ "pinned, 2nd thread stays local",	4, 2, 2, 1, 2, true  },
	{ "pinned, 3rd thread spreads",		4, 2, 3, 2, 2, false },
	{ "unpinned, 3rd thread stays local",	4, 8, 3, 2, 4, true  },
	{ "unpinned, 5th thread spreads",	4, 8, 5, 4, 4, false },
	{ "no allowed CPU in the local node",	4, 0, 1, 1, 0, false },
};

KUNIT_ARRAY_PARAM_DESC(numa_cap, numa_cap_cases, name);

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
	struct sched_group *sg;
	struct task_struct *p;
	struct cpumask *mask;

	if (nr_cpu_ids < 3)
		kunit_skip(test, "needs nr_cpu_ids >= 3");
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	sg = kunit_kzalloc(test, sizeof(*sg) + cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, mask);
	KUNIT_ASSERT_NOT_NULL(test, sg);
	cpumask_set_cpu(0, sched_group_span(sg));
	cpumask_set_cpu(1, sched_group_span(sg));
	sg->group_weight = sentinel;
	p->cpus_ptr = mask;

	/* Every CPU: the group's weight, and the mask is not walked. */
	cpumask_setall(mask);
	p->nr_cpus_allowed = nr_cpu_ids;
	KUNIT_EXPECT_EQ(test, sentinel, task_cpus_in_group(p, sg));

	/* Every CPU but the last: walked, both CPUs of the group. */
	cpumask_clear_cpu(nr_cpu_ids - 1, mask);
	p->nr_cpus_allowed = nr_cpu_ids - 1;
	KUNIT_EXPECT_EQ(test, 2, task_cpus_in_group(p, sg));

	/* Pinned to CPU 1: one CPU of the group. */
	cpumask_clear(mask);
	cpumask_set_cpu(1, mask);
	p->nr_cpus_allowed = 1;
	KUNIT_EXPECT_EQ(test, 1, task_cpus_in_group(p, sg));

	/* Pinned to CPU 2, outside the group: none. */
	cpumask_clear(mask);
	cpumask_set_cpu(2, mask);
	KUNIT_EXPECT_EQ(test, 0, task_cpus_in_group(p, sg));
}

static void numa_imb_pinned_cap_test(struct kunit *test)
{
	const struct numa_cap_case *c = test->param_value;
	unsigned int cap = numa_imb_pinned_cap(c->imb_numa_nr,
					       c->allowed_local);

	KUNIT_EXPECT_EQ(test, c->want_cap, cap);
	KUNIT_EXPECT_EQ(test, c->want_local,
			!adjust_numa_imbalance(c->imbalance, c->dst_running,
					       cap));
}
#endif /* CONFIG_NUMA */

static void set_runnable_boost(bool on)
{
	if (on)
		sysctl_sched_features |= BIT_ULL(__SCHED_FEAT_RUNNABLE_BOOST);
	else
		sysctl_sched_features &= ~BIT_ULL(__SCHED_FEAT_RUNNABLE_BOOST);
#ifdef CONFIG_JUMP_LABEL
	if (on)
		static_key_enable(&sched_feat_keys[__SCHED_FEAT_RUNNABLE_BOOST]);
	else
		static_key_disable(&sched_feat_keys[__SCHED_FEAT_RUNNABLE_BOOST]);
#endif
}

/*
 * cpu_util() of @cpu for @p being added there, with @cpu's cfs_rq averages
 * replaced for the duration of the call by the values the test needs and
 * put back before the runqueue lock is dropped. Nothing else writes the
 * averages without that lock, so the live load of @cpu cannot leak into
 * the result; lockless readers elsewhere may see the made-up values for
 * the length of one call.
 */
static unsigned long cpu_util_with(int cpu, struct task_struct *p, int boost,
				   unsigned long util, unsigned long runnable)
{
	struct cfs_rq *cfs_rq = &cpu_rq(cpu)->cfs;
	struct sched_avg saved;
	unsigned long ret;

	scoped_guard (rq_lock_irqsave, cpu_rq(cpu)) {
		saved = cfs_rq->avg;
		cfs_rq->avg.util_avg = util;
		cfs_rq->avg.runnable_avg = runnable;
		cfs_rq->avg.util_est = 0;
		ret = cpu_util(cpu, p, cpu, boost);
		cfs_rq->avg = saved;
	}
	return ret;
}

/*
 * cpu_util() itself, for a made-up task that waited much more than it ran
 * and is being added to a CPU whose runqueue is contended too. The values
 * are fractions of that CPU's own capacity, so the expectations hold on
 * any CPU: boosted, the result is the runnable sum (3/4 of capacity);
 * asking for a boost with RUNNABLE_BOOST off gives the plain util sum
 * (3/16), as not asking does.
 */
static void runnable_boost_test(struct kunit *test)
{
	bool was_on = sched_feat(RUNNABLE_BOOST);
	unsigned long cap, plain, boosted, off;
	struct task_struct *p;
	int cpu;

	if (!IS_ENABLED(CONFIG_THREAD_INFO_IN_TASK))
		kunit_skip(test, "task_cpu() of a made-up task needs THREAD_INFO_IN_TASK");
	/* task_cpu(p) is 0: any other CPU sees @p being added. */
	cpu = cpumask_next(0, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	cap = arch_scale_cpu_capacity(cpu);
	p->se.avg.util_avg = cap / 16;
	p->se.avg.runnable_avg = cap / 2;

	set_runnable_boost(true);
	plain = cpu_util_with(cpu, p, 0, cap / 8, cap / 4);
	boosted = cpu_util_with(cpu, p, 1, cap / 8, cap / 4);
	set_runnable_boost(false);
	off = cpu_util_with(cpu, p, 1, cap / 8, cap / 4);
	set_runnable_boost(was_on);

	KUNIT_EXPECT_EQ(test, plain, cap / 8 + cap / 16);
	KUNIT_EXPECT_EQ(test, boosted, cap / 4 + cap / 2);
	KUNIT_EXPECT_EQ(test, off, plain);
}

static struct kunit_case sched_placement_test_cases[] = {
	KUNIT_CASE(runnable_boost_test),
	KUNIT_CASE_PARAM(sis_idle_scan_depth_test, sis_depth_gen_params),
	KUNIT_CASE_PARAM(util_fits_remaining_test, fit_gen_params),
#ifdef CONFIG_NUMA
	KUNIT_CASE_PARAM(numa_imb_pinned_cap_test, numa_cap_gen_params),
	KUNIT_CASE(task_cpus_in_group_test),
#endif
	{}
};

static struct kunit_suite sched_placement_test_suite = {
	.name = "sched_placement",
	.test_cases = sched_placement_test_cases,
};

kunit_test_suite(sched_placement_test_suite);
