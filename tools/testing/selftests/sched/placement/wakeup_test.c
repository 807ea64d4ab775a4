// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup placement switches, UTIL_FITS_CAPACITY and SELECT_BIAS_PREV,
 * and their narrowings, SIS_LIMIT_STACKING and SIS_SYNC_SKIP_STACKING:
 * each test runs a wakeup scenario with the switches on and off,
 * interleaved, and asserts the effect, or that there is none where the
 * switches must not act.
 *
 * The scenarios run for 1.4 s each, REPS times a side. They are wall-clock
 * bound rather than CPU bound, but anything else busy on the machine (or,
 * under an emulator, on its host) blunts the effects: run them on an
 * otherwise idle system.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "wakeup_loads.h"

#define REPS	10	/* runs with the switches on, and as many off */

/*
 * NULL if the tests of @names (and @also, unless NULL) can run here, or
 * why not. The scenarios run in the last CPU's LLC, which needs two cores;
 * @schedstats when the rate comes from the tasks' schedstats.
 */
static const char *wakeup_skip(const char * const *names, int n, const char *also,
			       bool schedstats)
{
	if (!have_features(names, n) || (also && feature_state(also) < 0))
		return "a wakeup placement switch is missing from " FEATURES;
	if (read_topology() < 2)
		return "no L3 (cache/index3) in sysfs, or one CPU";
	if (llc_cores(nr_cpus - 1) < 2)
		return "the last CPU's LLC has fewer than 2 cores";
	if (feature_state("UTIL_EST") != 1)
		return "UTIL_EST is off";
	if (asym_capacity())
		return "asymmetric CPU capacity: the wakeup switches do not act here";
	if (schedstats && write_file(SCHEDSTATS, "1"))
		return "cannot turn schedstats on (CONFIG_SCHEDSTATS=n?)";
	return NULL;
}

static void print_reps(const char *what, const char *side, const double *v)
{
	char line[1024] = "";

	for (int i = 0; i < REPS; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %.3f", v[i]);
	ksft_print_msg("%s, %s:%s\n", what, side, line);
}

/*
 * Runs @rate REPS times with each of @names on and off, ABBA interleaved
 * so that neither side always goes first, after one run to warm up; @also
 * is on for both sides. Fills in the medians, med[1] with the switches on
 * and med[0] off, and returns 0, or -1 if a run could not measure.
 *
 * The median of each side rather than the mean: now and then a single
 * run counts several times the rate of the others, with either setting,
 * which alone can carry a mean of ten past the bar.
 */
static int on_off_medians(const char * const *names, int n, const char *also,
			  double (*rate)(void), const char *what, double med[2])
{
	double v[2][REPS];

	if (also && set_feature(also, true))
		return -1;
	rate();
	for (int r = 0; r < REPS; r++) {
		for (int side = 0; side < 2; side++) {
			bool on = side == (r & 1);

			for (int i = 0; i < n; i++)
				if (set_feature(names[i], on))
					return -1;
			v[on][r] = rate();
			if (v[on][r] < 0)
				return -1;
		}
	}
	print_reps(what, "on", v[1]);
	print_reps(what, "off", v[0]);
	med[0] = median(v[0], REPS);
	med[1] = median(v[1], REPS);
	ksft_print_msg("%s: median %.4f on, %.4f off\n", what, med[1], med[0]);
	return 0;
}

/*
 * Leaves the last CPU's LLC with its first two cores only, taking the
 * others offline until the teardown. Under an emulator every busy virtual
 * CPU slows the others: with the rest of a large LLC kept busy, the tasks
 * of the scenarios ran so stretched in time that their util_est no longer
 * fitted on one CPU.
 */
static void shrink_llc(struct __test_metadata *_metadata, struct sched_knobs *k)
{
	int cpus[2], llc = cpu_llc[nr_cpus - 1];

	if (last_llc_cores(cpus, 2) < 2)
		return;
	for (int c = 0; c < nr_cpus; c++) {
		if (cpu_llc[c] != llc || cpu_core[c] == cpus[0] || cpu_core[c] == cpus[1])
			continue;
		ASSERT_EQ(0, knobs_offline(k, c)) {
			TH_LOG("cannot take CPU %d offline", c);
		}
	}
}

/*
 * A wakee woken on its busy prev, with an idle CPU on another core. The
 * bar, a drop to at most half of the rate with the switch off, sits far
 * from the runs of either side.
 */
TEST_F_TIMEOUT(placement, util_fits_capacity, 120)
{
	static const char * const f[] = { "UTIL_FITS_CAPACITY" };
	const char *why = wakeup_skip(f, 1, NULL, true);
	double med[2];

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, on_off_medians(f, 1, NULL, busy_prev_moved,
				    "wakee on a busy prev", med));
	EXPECT_TRUE(med[0] > 0 && med[1] <= 0.5 * med[0]) {
		TH_LOG("moved %.3f with the switch, %.3f without: want at most half",
		       med[1], med[0]);
	}
}

/*
 * The same wakee with prev's idle SMT sibling to go to instead. The
 * original fit keeps it on prev, which has room; SIS_LIMIT_STACKING takes
 * the idle sibling first. The bar, with the limit a rate above 0 and at
 * least twice the rate without, sits far from runs of the two orders, taken
 * by its predecessor test.
 */
TEST_F_TIMEOUT(placement, limit_idle_sibling, 120)
{
	static const char * const f[] = { "SIS_LIMIT_STACKING" };
	const char *why = wakeup_skip(f, 1, "UTIL_FITS_CAPACITY", true);
	double med[2];

	if (why)
		SKIP(return, "%s", why);
	if (llc_cores(nr_cpus - 1) == llc_weight(nr_cpus - 1))
		SKIP(return, "no SMT siblings");
	shrink_llc(_metadata, &self->knobs);
	ASSERT_EQ(0, on_off_medians(f, 1, "UTIL_FITS_CAPACITY",
				    idle_sibling_moved,
				    "wakee with an idle sibling, limit on top of fit",
				    med));
	EXPECT_TRUE(med[1] > 0 && med[0] <= 0.5 * med[1]) {
		TH_LOG("moved %.3f with the limit, %.3f without: want at least twice",
		       med[1], med[0]);
	}
}

/*
 * sis_wake counts the fit's decisions: in the busy-prev scenario, fits
 * with the switch on, and no count of any kind with both switches off.
 */
TEST_F_TIMEOUT(placement, fit_counted, 60)
{
	static const char * const f[] = { "UTIL_FITS_CAPACITY", "SELECT_BIAS_PREV" };
	const char *why = wakeup_skip(f, 2, NULL, true);
	long fits, off;

	if (why)
		SKIP(return, "%s", why);
	if (access(SIS_WAKE, W_OK))
		SKIP(return, "no %s", SIS_WAKE);
	ASSERT_EQ(0, set_feature("SELECT_BIAS_PREV", false));
	ASSERT_EQ(0, set_feature("UTIL_FITS_CAPACITY", true));
	ASSERT_EQ(0, write_file(SIS_WAKE, "0"));
	ASSERT_LE(0, busy_prev_moved());
	fits = sis_wake_counted("fit_target") + sis_wake_counted("fit_prev") +
	       sis_wake_counted("fit_recent");
	ASSERT_EQ(0, set_feature("UTIL_FITS_CAPACITY", false));
	ASSERT_EQ(0, write_file(SIS_WAKE, "0"));
	ASSERT_LE(0, busy_prev_moved());
	off = sis_wake_counted(NULL);
	ksft_print_msg("sis_wake: %ld fits with the switch, %ld counts without\n",
		       fits, off);
	EXPECT_LT(0, fits);
	EXPECT_EQ(0, off);
}

/*
 * A light fair task beside an RT task with a duty cycle: the share of its
 * wakeups on the RT task's CPU must not change with the switch. The bar,
 * the median with the switch on within 0.25 of the median with it off, is
 * about half the distance a kernel whose fit counted only the fair class
 * showed.
 */
TEST_F_TIMEOUT(placement, fit_not_behind_rt, 120)
{
	static const char * const f[] = { "UTIL_FITS_CAPACITY" };
	const char *why = wakeup_skip(f, 1, NULL, false);
	double med[2];

	if (why)
		SKIP(return, "%s", why);
	shrink_llc(_metadata, &self->knobs);
	ASSERT_EQ(0, on_off_medians(f, 1, NULL, rt_cpu_share,
				    "wakee beside an RT task", med));
	EXPECT_TRUE(fabs(med[1] - med[0]) <= 0.25) {
		TH_LOG("on the RT CPU %.3f with the switch, %.3f without: want within 0.25",
		       med[1], med[0]);
	}
}

/*
 * A sync wakee on a busy prev. The bar, at most half the rate with
 * neither, sits far from the runs of either side.
 */
TEST_F_TIMEOUT(placement, fit_and_bias, 120)
{
	static const char * const f[] = { "UTIL_FITS_CAPACITY", "SELECT_BIAS_PREV" };
	const char *why = wakeup_skip(f, 2, NULL, true);
	double med[2];

	if (why)
		SKIP(return, "%s", why);
	shrink_llc(_metadata, &self->knobs);
	ASSERT_EQ(0, on_off_medians(f, 2, NULL, waker_prev_moved,
				    "sync wakee, both vs neither", med));
	EXPECT_TRUE(med[0] > 0 && med[1] <= 0.5 * med[0]) {
		TH_LOG("moved %.3f with both, %.3f with neither: want at most half",
		       med[1], med[0]);
	}
}

/*
 * SELECT_BIAS_PREV on its own increment, with UTIL_FITS_CAPACITY on for
 * both sides: without the bias the fit takes target, the waker's CPU. The
 * bar, at most half the rate without, sits far from the runs of either
 * side.
 */
TEST_F_TIMEOUT(placement, bias_prev, 120)
{
	static const char * const f[] = { "SELECT_BIAS_PREV" };
	const char *why = wakeup_skip(f, 1, "UTIL_FITS_CAPACITY", true);
	double med[2];

	if (why)
		SKIP(return, "%s", why);
	shrink_llc(_metadata, &self->knobs);
	ASSERT_EQ(0, on_off_medians(f, 1, "UTIL_FITS_CAPACITY", waker_prev_moved,
				    "sync wakee, bias on top of fit", med));
	EXPECT_TRUE(med[0] > 0 && med[1] <= 0.5 * med[0]) {
		TH_LOG("moved %.3f with the bias, %.3f without: want at most half",
		       med[1], med[0]);
	}
}

/*
 * A 1:1 pair handing a byte back and forth through pipes (sync wakeups),
 * in an LLC with idle CPUs: the base wakes each side on its idle prev,
 * never on the waker's CPU, and the switches must not change that: an idle
 * candidate comes before a fit and before the bias. Were the fit tried
 * first, the waker's CPU, running one light task, would fit, and the pair
 * would stack there, the loss of 1:1 loads such as tbench and netperf.
 * The LLC is left idle: with a 50% duty-cycle spinner on each of its CPUs,
 * the switches stacked the pair in some runs. The bar, at most 0.05 above
 * the rate with the switches off, is below what a kernel that tried the
 * fit on target before the idle candidates stacked.
 */
TEST_F_TIMEOUT(placement, pair_not_stacked, 120)
{
	static const char * const f[] = { "UTIL_FITS_CAPACITY", "SELECT_BIAS_PREV" };
	const char *why = wakeup_skip(f, 2, NULL, false);
	double med[2];

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, on_off_medians(f, 2, NULL, pair_stacked,
				    "1:1 pair, both vs neither", med));
	EXPECT_TRUE(med[1] <= med[0] + 0.05) {
		TH_LOG("stacked %.3f with both, %.3f with neither: want at most 0.05 more",
		       med[1], med[0]);
	}
}

/*
 * SIS_SYNC_SKIP_STACKING on top of both switches, in fit_and_bias's
 * scenario: a sync wakee (a pipe write) whose prev runs another task.
 * Without the mode both switches keep the wakee on prev; with it the
 * wakee is placed as with neither switch, on target, the waker's CPU, and
 * sis_wake counts the sync wakeups for which it did not try the fit or
 * which it sent to target rather than prev. The bar, with the mode a rate
 * above 0 and at least twice the rate without, sits far from
 * fit_and_bias's runs with both switches and with neither, which the two
 * sides repeat.
 */
TEST_F_TIMEOUT(placement, sync_skip_stacking, 120)
{
	static const char * const f[] = { "SIS_SYNC_SKIP_STACKING" };
	static const char * const both[] = { "UTIL_FITS_CAPACITY", "SELECT_BIAS_PREV" };
	const char *why = wakeup_skip(both, 2, f[0], true);
	double med[2];
	long skipped;

	if (why)
		SKIP(return, "%s", why);
	shrink_llc(_metadata, &self->knobs);
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, set_feature(both[i], true));
	ASSERT_EQ(0, on_off_medians(f, 1, NULL, waker_prev_moved,
				    "sync wakee, sync mode on top of both", med));
	EXPECT_TRUE(med[1] > 0 && med[0] <= 0.5 * med[1]) {
		TH_LOG("moved %.3f with the mode, %.3f without: want at least twice",
		       med[1], med[0]);
	}
	if (access(SIS_WAKE, W_OK))
		return;
	ASSERT_EQ(0, set_feature(f[0], true));
	ASSERT_EQ(0, write_file(SIS_WAKE, "0"));
	ASSERT_LE(0, waker_prev_moved());
	skipped = sis_wake_counted("sync_skip_fit") + sis_wake_counted("sync_skip_last");
	ksft_print_msg("sis_wake: %ld sync wakeups with no fit tried or sent to target\n",
		       skipped);
	EXPECT_LT(0, skipped);
}

/*
 * SIS_SYNC_SKIP_STACKING leaves other wakeups to the fit: in
 * util_fits_capacity's scenario, a wakee woken through a futex (no
 * WF_SYNC) on its busy prev, with UTIL_FITS_CAPACITY on for both sides.
 * The bar, the medians within 0.25, is half the distance between that
 * test's runs with the fit and without: a mode that skipped the fit for
 * every wakeup would move the wakee as often as no fit does.
 */
TEST_F_TIMEOUT(placement, sync_skip_only_sync, 120)
{
	static const char * const f[] = { "SIS_SYNC_SKIP_STACKING" };
	const char *why = wakeup_skip(f, 1, "UTIL_FITS_CAPACITY", true);
	double med[2];

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, on_off_medians(f, 1, "UTIL_FITS_CAPACITY", busy_prev_moved,
				    "plain wakee on a busy prev, sync mode on top of fit",
				    med));
	EXPECT_TRUE(fabs(med[1] - med[0]) <= 0.25) {
		TH_LOG("moved %.3f with the mode, %.3f without: want within 0.25",
		       med[1], med[0]);
	}
}

TEST_HARNESS_MAIN
