#!/usr/bin/env bash
# SIS_SYNC_SKIP_STACKING's ladder (issue 57, item 1), one boot of zen3:
#   docs/results/2026-12-07-sync-ladder-zen3/run.sh
# through scripts/bench.sh (make bench's driver) on the kernel make last
# built (`make kernel tools` first), 12 interleaved runs a side: both
# wakeup switches with the mode (A) against both wakeup switches (B), on
# tbench 1, 8 and 64 clients (5 s runs) and hackbench 4 groups, threads
# and processes, over pipes and over sockets; and, as the control of the
# same boot, both wakeup switches against neither on tbench 64. The clock
# is the host's wall clock (ICOUNT=off), as in the ladder records the
# changelogs cite (2026-12-06-wakeup-ladder-zen3): their tbench loss in
# throughput shows on that clock only (2026-12-07-icount-zen3), and the
# question is how much of it the mode gives back.
# Writes run/ here (refused if it exists): report.txt, results.json, each
# set's .raw, .meta and .csv, machine, topology, clock, make.err (the
# driver's stderr, each line with the host's time) and summary.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
# The run itself, its prerequisites and what it copies here:
# scripts/record-run.sh.
exec "$top/scripts/record-run.sh" "$here/run" sync-ladder \
	PRESET=zen3 ICOUNT=off REPS=12 TBENCH_SECS=5 BENCH_TIMEOUT=5400 \
	SETS='sync-tbench-1 sync-tbench-8 sync-tbench-64 tbench-64 sync-g4 sync-sock-g4 sync-proc-g4 sync-proc-sock-g4'
