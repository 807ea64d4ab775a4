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

/*
 * Sets or clears a sched feature for the whole system, as a write to
 * /sys/kernel/debug/sched/features does (sched_feat_write() holds
 * cpus_read_lock() around the same two steps).
 */
static void set_feat(unsigned int nr, bool on)
{
	cpus_read_lock();
	if (on)
		sysctl_sched_features |= BIT_ULL(nr);
	else
		sysctl_sched_features &= ~BIT_ULL(nr);
#ifdef CONFIG_JUMP_LABEL
	if (on)
		static_key_enable_cpuslocked(&sched_feat_keys[nr]);
	else
		static_key_disable_cpuslocked(&sched_feat_keys[nr]);
#endif
	cpus_read_unlock();
}

/* Another online CPU that shares @cpu's LLC, or -1. */
static int llc_sibling(int cpu)
{
	int other;

	for_each_online_cpu(other) {
		if (other != cpu && cpus_share_cache(other, cpu))
			return other;
	}
	return -1;
}

/*
 * select_idle_sibling() when neither target nor prev is idle, so that the
 * wakeup switches decide. Both CPUs share an LLC; for the length of the
 * call their runqueue locks are held and their nr_running, h_nr_idle and
 * util_est replaced by the case's values, which makes each of them busy
 * to choose_idle_cpu() (idle_cpu() tests nr_running, sched_idle_cpu()
 * compares it with h_nr_idle, here 0) and gives the fit its inputs,
 * whatever the CPUs really run. The values are put back before the locks
 * are dropped; lockless readers elsewhere may see them for the length of
 * one call.
 */
static int sis_busy_pair(struct task_struct *p, int prev, int target, bool sync,
			 unsigned int prev_nr, unsigned int target_nr,
			 unsigned long util_est)
{
	struct rq *rqs[2] = { cpu_rq(prev), cpu_rq(target) };
	unsigned int nr[2] = { prev_nr, target_nr };
	unsigned int saved_nr[2], saved_idle[2];
	unsigned long saved_ue[2], flags;
	int got, i;

	local_irq_save(flags);
	double_rq_lock(rqs[0], rqs[1]);
	for (i = 0; i < 2; i++) {
		saved_nr[i] = rqs[i]->nr_running;
		saved_idle[i] = rqs[i]->cfs.h_nr_idle;
		saved_ue[i] = rqs[i]->cfs.avg.util_est;
		rqs[i]->nr_running = nr[i];
		rqs[i]->cfs.h_nr_idle = 0;
		rqs[i]->cfs.avg.util_est = util_est;
	}
	scoped_guard (rcu)
		got = select_idle_sibling(p, prev, target, sync);
	for (i = 0; i < 2; i++) {
		rqs[i]->nr_running = saved_nr[i];
		rqs[i]->cfs.h_nr_idle = saved_idle[i];
		rqs[i]->cfs.avg.util_est = saved_ue[i];
	}
	double_rq_unlock(rqs[0], rqs[1]);
	local_irq_restore(flags);
	return got;
}

struct sis_order_case {
	const char *name;
	bool bias;		/* SELECT_BIAS_PREV, UTIL_FITS_CAPACITY is on */
	unsigned int prev_nr, target_nr;
	bool want_prev;		/* else target */
};

/*
 * Both CPUs run one task and carry a light util_est, an eighth of the
 * smaller capacity of the two, and so does the task: a quarter of the
 * capacity fits in either, with room to spare above the 20% margin, so
 * the order decides. A CPU with a task queued (nr_running 2) has no room.
 * Only cases that end before the LLC scan are here: the scan's answer
 * depends on what the other CPUs of the LLC run.
 */
static const struct sis_order_case sis_order_cases[] = {
	{ "both fit: target first",		false, 1, 1, false },
	{ "target queued: prev",		false, 1, 2, true  },
	{ "bias, both fit: prev first",		true,  1, 1, true  },
	{ "bias, prev queued: target",		true,  2, 1, false },
};

KUNIT_ARRAY_PARAM_DESC(sis_order, sis_order_cases, name);

static void select_idle_sibling_order_test(struct kunit *test)
{
	const struct sis_order_case *c = test->param_value;
	bool fits_was = sched_feat(UTIL_FITS_CAPACITY);
	bool bias_was = sched_feat(SELECT_BIAS_PREV);
	unsigned long light;
	int prev, target, got;
	struct task_struct *p;

	if (sched_asym_cpucap_active())
		kunit_skip(test, "asymmetric capacity: the switches do not act");
	if (!sched_feat(UTIL_EST))
		kunit_skip(test, "UTIL_FITS_CAPACITY needs UTIL_EST");
	/* A per-CPU kthread waking a task of its own CPU gets that CPU. */
	if (is_per_cpu_kthread(current))
		kunit_skip(test, "runs in a per-CPU kthread");
	target = cpumask_first(cpu_online_mask);
	prev = llc_sibling(target);
	if (prev < 0)
		kunit_skip(test, "needs two online CPUs sharing an LLC");

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->cpus_ptr = cpu_possible_mask;
	p->nr_cpus_allowed = nr_cpu_ids;
	p->recent_used_cpu = prev;	/* no third candidate */
	light = min(capacity_of(prev), capacity_of(target)) / 8;
	p->se.avg.util_est = light;
#ifdef CONFIG_FAIR_GROUP_SCHED
	p->se.cfs_rq = &cpu_rq(prev)->cfs;
#endif

	set_feat(__SCHED_FEAT_UTIL_FITS_CAPACITY, true);
	set_feat(__SCHED_FEAT_SELECT_BIAS_PREV, c->bias);
	got = sis_busy_pair(p, prev, target, false, c->prev_nr, c->target_nr,
			    light);
	set_feat(__SCHED_FEAT_UTIL_FITS_CAPACITY, fits_was);
	set_feat(__SCHED_FEAT_SELECT_BIAS_PREV, bias_was);

	KUNIT_EXPECT_EQ(test, c->want_prev ? prev : target, got);
}

/*
 * The SELECT_BIAS_PREV fallback keeps the task on prev unless
 * prev_busier(): prev runs more tasks than target, where a sync waker on
 * target, about to sleep, does not count. The runqueues' nr_running are
 * replaced under their locks for the length of the call, as above.
 */
struct prev_busier_case {
	const char *name;
	unsigned int prev_nr, target_nr;
	bool sync_waker;
	bool want;
};

static const struct prev_busier_case prev_busier_cases[] = {
	{ "one task each",			1, 1, false, false },
	{ "prev queued",			2, 1, false, true  },
	{ "target queued",			1, 2, false, false },
	{ "sync: target runs only the waker",	1, 1, true,  true  },
	{ "sync: waker and one more on target",	1, 2, true,  false },
	{ "sync: waker and one more, prev two",	2, 2, true,  true  },
	{ "sync: prev idle",			0, 1, true,  false },
};

KUNIT_ARRAY_PARAM_DESC(prev_busier, prev_busier_cases, name);

static void prev_busier_test(struct kunit *test)
{
	const struct prev_busier_case *c = test->param_value;
	unsigned int prev_nr, target_nr;
	int prev, target;
	struct rq *prq, *trq;
	unsigned long flags;
	bool got;

	target = cpumask_first(cpu_online_mask);
	prev = llc_sibling(target);
	if (prev < 0)
		kunit_skip(test, "needs two online CPUs sharing an LLC");

	prq = cpu_rq(prev);
	trq = cpu_rq(target);
	local_irq_save(flags);
	double_rq_lock(prq, trq);
	prev_nr = prq->nr_running;
	target_nr = trq->nr_running;
	prq->nr_running = c->prev_nr;
	trq->nr_running = c->target_nr;
	got = prev_busier(prev, target, c->sync_waker);
	prq->nr_running = prev_nr;
	trq->nr_running = target_nr;
	double_rq_unlock(prq, trq);
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, c->want, got);
}

/*
 * The SELECT_BIAS_PREV fallback through select_idle_sibling() itself: the
 * task may run only on prev and target, both busy (nr_running and
 * h_nr_idle replaced by sis_busy_pair()), so the LLC
 * scan finds nothing allowed and idle whatever the other CPUs run, and the
 * last step decides. UTIL_FITS_CAPACITY is off, so no fit answers first.
 */
struct bias_fallback_case {
	const char *name;
	bool bias;		/* SELECT_BIAS_PREV */
	unsigned int prev_nr, target_nr;
	bool sync_waker;
	bool want_prev;		/* else target */
};

static const struct bias_fallback_case bias_fallback_cases[] = {
	{ "no bias: target",				false, 1, 1, false, false },
	{ "no bias, target queued: target",		false, 1, 2, false, false },
	{ "bias, one task each: prev",			true,  1, 1, false, true  },
	{ "bias, prev queued: target",			true,  2, 1, false, false },
	{ "bias, sync, waker alone on target: target",	true,  1, 1, true,  false },
	{ "bias, sync, waker and one more: prev",	true,  1, 2, true,  true  },
};

KUNIT_ARRAY_PARAM_DESC(bias_fallback, bias_fallback_cases, name);

static void bias_fallback_test(struct kunit *test)
{
	const struct bias_fallback_case *c = test->param_value;
	bool fits_was = sched_feat(UTIL_FITS_CAPACITY);
	bool bias_was = sched_feat(SELECT_BIAS_PREV);
	int prev, target, got;
	struct cpumask *allowed;
	struct task_struct *p;

	if (sched_asym_cpucap_active())
		kunit_skip(test, "asymmetric capacity: the switches do not act");
	if (is_per_cpu_kthread(current))
		kunit_skip(test, "runs in a per-CPU kthread");
	target = cpumask_first(cpu_online_mask);
	prev = llc_sibling(target);
	if (prev < 0)
		kunit_skip(test, "needs two online CPUs sharing an LLC");

	allowed = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, allowed);
	KUNIT_ASSERT_NOT_NULL(test, p);
	cpumask_set_cpu(prev, allowed);
	cpumask_set_cpu(target, allowed);
	p->cpus_ptr = allowed;
	p->nr_cpus_allowed = 2;
	p->recent_used_cpu = prev;	/* no third candidate */
#ifdef CONFIG_FAIR_GROUP_SCHED
	p->se.cfs_rq = &cpu_rq(prev)->cfs;
#endif

	set_feat(__SCHED_FEAT_UTIL_FITS_CAPACITY, false);
	set_feat(__SCHED_FEAT_SELECT_BIAS_PREV, c->bias);
	/* UTIL_FITS_CAPACITY is off: util_est is not read. */
	got = sis_busy_pair(p, prev, target, c->sync_waker, c->prev_nr,
			    c->target_nr, 0);
	set_feat(__SCHED_FEAT_UTIL_FITS_CAPACITY, fits_was);
	set_feat(__SCHED_FEAT_SELECT_BIAS_PREV, bias_was);

	KUNIT_EXPECT_EQ(test, c->want_prev ? prev : target, got);
}

#ifdef CONFIG_NUMA
struct numa_imb_case {
	const char *name;
	bool pinned_feat;	/* NUMA_IMB_PINNED */
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
	bool was_on = sched_feat(NUMA_IMB_PINNED);
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

	set_feat(__SCHED_FEAT_NUMA_IMB_PINNED, c->pinned_feat);
	nr = task_numa_imb_nr(f.p, f.sg, c->imb_numa_nr);
	set_feat(__SCHED_FEAT_NUMA_IMB_PINNED, was_on);

	KUNIT_EXPECT_EQ(test, c->want_nr, nr);
	KUNIT_EXPECT_EQ(test, c->want_local,
			!adjust_numa_imbalance(c->imbalance, c->dst_running,
					       nr));
}
#endif /* CONFIG_NUMA */

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

	set_feat(__SCHED_FEAT_RUNNABLE_BOOST, true);
	plain = cpu_util_with(cpu, p, 0, cap / 8, cap / 4);
	boosted = cpu_util_with(cpu, p, 1, cap / 8, cap / 4);
	set_feat(__SCHED_FEAT_RUNNABLE_BOOST, false);
	off = cpu_util_with(cpu, p, 1, cap / 8, cap / 4);
	set_feat(__SCHED_FEAT_RUNNABLE_BOOST, was_on);

	KUNIT_EXPECT_EQ(test, plain, cap / 8 + cap / 16);
	KUNIT_EXPECT_EQ(test, boosted, cap / 4 + cap / 2);
	KUNIT_EXPECT_EQ(test, off, plain);
}

static struct kunit_case sched_placement_test_cases[] = {
	KUNIT_CASE(runnable_boost_test),
	KUNIT_CASE_PARAM(sis_idle_scan_depth_test, sis_depth_gen_params),
	KUNIT_CASE_PARAM(util_fits_remaining_test, fit_gen_params),
	KUNIT_CASE_PARAM(select_idle_sibling_order_test, sis_order_gen_params),
	KUNIT_CASE_PARAM(prev_busier_test, prev_busier_gen_params),
	KUNIT_CASE_PARAM(bias_fallback_test, bias_fallback_gen_params),
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
