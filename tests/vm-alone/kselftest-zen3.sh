#!/usr/bin/env bash
# check: full, budget 1500 s
# Every kselftest on zen3, the target shape (16-CPU LLCs), where each must
# run and pass; alone on the host, as tests/kselftest.sh says. But
# hackbench_test, which has a stage of its own (kselftest-hackbench.sh).
KS_PRESET=zen3 KS_ALONE=1 KS_ARGS='-S sched/placement:hackbench_test' exec bash "$(dirname "$0")/../kselftest.sh"
