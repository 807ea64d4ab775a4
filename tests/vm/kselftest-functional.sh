#!/usr/bin/env bash
# check: quick, budget 300 s
# The kselftests that count decisions, not timing (every program but
# wakeup_test and hackbench_test: the switches' interfaces, the NUMA cap,
# the SIS scan floor), on 2s4llc: they run beside another guest.
KS_PRESET=2s4llc KS_ARGS='-S sched/placement:wakeup_test -S sched/placement:hackbench_test' exec bash "$(dirname "$0")/../kselftest.sh"
