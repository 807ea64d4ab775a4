/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of every test program here, included once by each: the
 * knobs a test may change (features, schedstats, sis_small_llc, CPUs
 * offline) are saved before the test and restored after it, whatever the
 * test did: by the parent's teardown when the test ends or fails, and by
 * knobs_guard()'s guard when a timeout kills the test's process group,
 * parent and teardown included. A kernel without the debugfs files skips
 * every test.
 */
#ifndef __SCHED_PLACEMENT_FIXTURE_H
#define __SCHED_PLACEMENT_FIXTURE_H

#include "../../kselftest_harness.h"
#include "placement.h"

FIXTURE(placement) {
	struct sched_knobs knobs;
};

FIXTURE_SETUP(placement)
{
	const char *why = knobs_save(&self->knobs);
	int err;

	if (why)
		SKIP(return, "%s", why);
	/* The setup runs in a child of the process that runs the teardown. */
	err = knobs_guard(&self->knobs, getppid());
	if (err) {
		/* A failed setup has no teardown. */
		knobs_restore(&self->knobs);
		ASSERT_EQ(0, err) TH_LOG("cannot fork the knobs' guard: %s", strerror(-err));
	}
}

FIXTURE_TEARDOWN_PARENT(placement)
{
	knobs_restore(&self->knobs);
}

#endif /* __SCHED_PLACEMENT_FIXTURE_H */
