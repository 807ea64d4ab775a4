/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler features of the task placement series, as in
 * kernel/sched/features.h, with their defaults. The one list of them:
 * the tests read it by defining PLACEMENT_SWITCH(name, default) before
 * including this file, and the harness around them parses it.
 */
PLACEMENT_SWITCH(RUNNABLE_BOOST, true)
PLACEMENT_SWITCH(NUMA_IMB_PINNED, true)
PLACEMENT_SWITCH(SIS_SMALL_LLC, false)
PLACEMENT_SWITCH(UTIL_FITS_CAPACITY, false)
PLACEMENT_SWITCH(SELECT_BIAS_PREV, false)
PLACEMENT_SWITCH(SIS_LIMIT_STACKING, false)
