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
 * imbalance_pct 117 puts the SIS_UTIL cutoff near 85% utilization. The
 * expected depths are worked by hand from equations [2]-[4] of
 * sis_idle_scan_depth(): at 50% busy (x' = 512), y = 1024 - 350 = 674,
 * which gives 2 of 4, 5 of 8, 10 of 16 and 21 of 32 CPUs; at 86% busy
 * (x' = 880) and above, y = 0.
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
	unsigned long rq_util_est;
	unsigned long task_util;
	unsigned long capacity;
	bool want;
};

/*
 * fits_capacity() keeps 20% free: a sum s fits capacity c when
 * s * 1280 < c * 1024, so 819 is the most that fits 1024, and 560 does
 * not fit 700 (716800 on both sides). 446 stands for the little CPU of an
 * asymmetric system; the same load fits its big sibling.
 */
static const struct fit_case fit_cases[] = {
	{ "idle CPU, small task",		   0,   1, 1024, true  },
	{ "no capacity left",			   0,   0,    0, false },
	{ "sum at the 20% margin",		 400, 419, 1024, true  },
	{ "sum one past the margin",		 400, 420, 1024, false },
	{ "sum at capacity",			 512, 512, 1024, false },
	{ "runqueue alone past capacity",	1100,   0, 1024, false },
	{ "RT pressure, just fits",		 300, 259,  700, true  },
	{ "RT pressure, boundary",		 300, 260,  700, false },
	{ "asymmetric: little CPU, fits",	 100, 200,  446, true  },
	{ "asymmetric: little CPU, too big",	 200, 200,  446, false },
	{ "asymmetric: big CPU, same load",	 200, 200, 1024, true  },
};

KUNIT_ARRAY_PARAM_DESC(fit, fit_cases, name);

static void util_fits_remaining_test(struct kunit *test)
{
	const struct fit_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->want,
			util_fits_remaining(c->rq_util_est, c->task_util,
					    c->capacity));
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
 * cpu_util() itself, on the live runqueue of an idle CPU other than CPU 0
 * and this one, for a made-up task that waited much more than it ran
 * (runnable_avg 900, util_avg 10) and is being added there. Boosted, the
 * result is at least the task's runnable_avg; with RUNNABLE_BOOST off,
 * boosting is asked for in vain and the result is the same low util as
 * without boosting.
 */
static void runnable_boost_test(struct kunit *test)
{
	bool was_on = sched_feat(RUNNABLE_BOOST);
	unsigned long plain, boosted, off;
	struct task_struct *p;
	int cpu, this = raw_smp_processor_id();

	if (!IS_ENABLED(CONFIG_THREAD_INFO_IN_TASK))
		kunit_skip(test, "task_cpu() of a made-up task needs THREAD_INFO_IN_TASK");
	for_each_online_cpu(cpu)
		if (cpu && cpu != this && idle_cpu(cpu))
			break;
	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "no idle CPU other than CPU 0 and this one");
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	/* task_cpu(p) is 0: moving it to @cpu adds it there. */
	p->se.avg.util_avg = 10;
	p->se.avg.runnable_avg = 900;

	set_runnable_boost(true);
	plain = cpu_util(cpu, p, cpu, 0);
	boosted = cpu_util(cpu, p, cpu, 1);
	set_runnable_boost(false);
	off = cpu_util(cpu, p, cpu, 1);
	set_runnable_boost(was_on);

	KUNIT_EXPECT_GE(test, boosted, 900UL);
	KUNIT_EXPECT_LT(test, plain, 900UL);
	KUNIT_EXPECT_LT(test, off, 900UL);
}

static struct kunit_case sched_placement_test_cases[] = {
	KUNIT_CASE(runnable_boost_test),
	KUNIT_CASE_PARAM(sis_idle_scan_depth_test, sis_depth_gen_params),
	KUNIT_CASE_PARAM(util_fits_remaining_test, fit_gen_params),
#ifdef CONFIG_NUMA
	KUNIT_CASE_PARAM(numa_imb_pinned_cap_test, numa_cap_gen_params),
#endif
	{}
};

static struct kunit_suite sched_placement_test_suite = {
	.name = "sched_placement",
	.test_cases = sched_placement_test_cases,
};

kunit_test_suite(sched_placement_test_suite);
