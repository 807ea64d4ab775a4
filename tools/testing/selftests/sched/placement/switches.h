/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler features of the task placement series, as in
 * kernel/sched/features.h, with their defaults: the one list of them,
 * which placement.c includes and the harness around the tests parses
 * (one switch a line).
 */
const struct placement_switch placement_switches[] = {
	{ "RUNNABLE_BOOST",	true },
	{ "NUMA_IMB_PINNED",	true },
	{ "SIS_SMALL_LLC",	false },
	{ "UTIL_FITS_CAPACITY",	false },
	{ "SELECT_BIAS_PREV",	false },
	{ "SIS_LIMIT_STACKING",	false },
	{ "SIS_SYNC_SKIP_STACKING",	false },
};
