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

static void sis_depth_case_desc(const struct sis_depth_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sis_depth, sis_depth_cases, sis_depth_case_desc);

static void sis_idle_scan_depth_test(struct kunit *test)
{
	const struct sis_depth_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->want,
			sis_idle_scan_depth(c->sum_util, c->llc_weight, 117,
					    c->small_llc));
}

static struct kunit_case sched_placement_test_cases[] = {
	KUNIT_CASE_PARAM(sis_idle_scan_depth_test, sis_depth_gen_params),
	{}
};

static struct kunit_suite sched_placement_test_suite = {
	.name = "sched_placement",
	.test_cases = sched_placement_test_cases,
};

kunit_test_suite(sched_placement_test_suite);
