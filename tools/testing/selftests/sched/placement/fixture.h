/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of every test program here, included once by each: the
 * knobs a test may change (features, schedstats, sis_small_llc, CPUs
 * offline) are saved before the test and restored by the parent after
 * it, whatever the test did, even when it failed or timed out. A kernel
 * without the debugfs files skips every test.
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

	if (why)
		SKIP(return, "%s", why);
}

FIXTURE_TEARDOWN_PARENT(placement)
{
	knobs_restore(&self->knobs);
}

#endif /* __SCHED_PLACEMENT_FIXTURE_H */
