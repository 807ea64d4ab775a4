#!/usr/bin/env bash
# check: full, budget 600 s
# hackbench_test (hackbench's migrations, one per LLC, with both wakeup
# switches on and off, and sis_wake's counts of their decisions) on zen3,
# where its bar was measured; alone on the host, as tests/kselftest.sh
# says. A run took 27-54 s (docs/results/2026-12-07-hackbench-test-pinned).
KS_PRESET=zen3 KS_ALONE=1 KS_ARGS='-t sched/placement:hackbench_test' exec bash "$(dirname "$0")/../kselftest.sh"
