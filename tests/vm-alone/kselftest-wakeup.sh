#!/usr/bin/env bash
# check: full, budget 900 s
# wakeup_test, the behaviour kselftests (migration counts with each switch
# on and off), on 2s4llc; alone on the host, as tests/kselftest.sh says.
KS_PRESET=2s4llc KS_ALONE=1 KS_ARGS='-t sched/placement:wakeup_test' exec bash "$(dirname "$0")/../kselftest.sh"
