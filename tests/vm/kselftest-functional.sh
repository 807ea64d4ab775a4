#!/usr/bin/env bash
# check: quick, budget 300 s
# The functional kselftests (every program but wakeup_test: the switches'
# interfaces, the NUMA cap, the SIS scan floor) on 2s4llc. They count
# decisions, not timing, so they run beside another guest.
KS_PRESET=2s4llc KS_ARGS='-S sched/placement:wakeup_test' exec bash "$(dirname "$0")/../kselftest.sh"
