#!/usr/bin/env bash
# check: full, budget 600 s
# hackbench_test (hackbench's migrations with both wakeup switches on and
# off, and sis_wake's counts of their decisions) on zen3, the shape of the
# A/B it follows; alone on the host, as tests/kselftest.sh says.
KS_PRESET=zen3 KS_ALONE=1 KS_ARGS='-t sched/placement:hackbench_test' exec bash "$(dirname "$0")/../kselftest.sh"
