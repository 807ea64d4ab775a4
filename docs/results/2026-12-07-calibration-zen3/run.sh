#!/usr/bin/env bash
# The calibration table's runs (issue 60, item 6), one cell group a command,
# one after another on this host, nothing else in a VM:
#   docs/results/2026-12-07-calibration-zen3/run.sh GROUP
# Each GROUP is one boot of zen3 through scripts/bench.sh (make bench's
# driver) on the kernel make last built (build/kbuild-vm; run `make kernel
# tools ledger` first), on icount shift 0, the A/B's default clock and the
# ledger's. The groups, in the order to run them (the record's README gives
# the estimates and the records they come from):
#   hb-ledger  LEDGER=1, 12 runs a side: hackbench at 4, 2, 8 and 1 groups
#   tb-ledger  LEDGER=1, 6 runs a side: tbench 64 clients, 2 s
#   plain-1    no ledger, 8 runs a side: tbench 32, schbench 64 workers, pipe
#   plain-2    no ledger, 6 runs a side: tbench 16 and 8 clients
#   plain-3    no ledger, 6 runs a side: schbench 16 workers, tbench 1,
#              STREAM
# It writes GROUP/ here (refused if it exists: a run is never overwritten):
# the report (report.txt), results.json, each set's .raw, .meta, .csv and,
# with the ledger, its .ledger (the runs' window labels), the machine file
# and the plugin's window lines (ledger.conf, ledger.txt.xz), machine,
# topology and clock; make.err, the driver's stderr with the host's time (s)
# on each line (the first guest line ends the boot, "== SET" starts a set);
# host.vmstat.xz (the host every 5 s); summary (this script's last line). The
# whole results directory (plots, console, dmesg) stays where summary's
# results= says, outside the repository. Only this group's knobs reach
# bench.sh: none from the caller's shell.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
group=${1:-}
# One line per group: the knobs of scripts/bench.sh (bench/README.md). The
# guest's time bound, BENCH_TIMEOUT, is 2 to 2.5 times the estimate: a bound,
# not a plan; the sets that completed are reported even if it strikes.
case $group in
hb-ledger) knobs=(LEDGER=1 REPS=12 HB_LOOPS=500 SETS='both-g4 both-g2 both-g8 both-g1' BENCH_TIMEOUT=4500) ;;
tb-ledger) knobs=(LEDGER=1 REPS=6 TBENCH_SECS=2 SETS='tbench-64' BENCH_TIMEOUT=4800) ;;
plain-1) knobs=(REPS=8 TBENCH_SECS=2 SCHBENCH_SECS=2 PIPE_LOOPS=50000 SETS='tbench-32 schbench-w64 both-pipe' BENCH_TIMEOUT=3600) ;;
plain-2) knobs=(REPS=6 TBENCH_SECS=2 SETS='tbench-16 tbench-8' BENCH_TIMEOUT=2700) ;;
plain-3) knobs=(REPS=6 TBENCH_SECS=2 SCHBENCH_SECS=2 SETS='schbench-w16 tbench-1 both-stream-10' BENCH_TIMEOUT=3000) ;;
*)
	echo "usage: run.sh GROUP, one of: hb-ledger tb-ledger plain-1 plain-2 plain-3 (in that order; the record's README)" >&2
	exit 2
	;;
esac
# The run itself, its prerequisites and what it copies here:
# scripts/record-run.sh.
exec "$top/scripts/record-run.sh" -g "$group" -t 'stats sp-schbench sp-stream' -v \
	-f PRESET=zen3 -f ICOUNT=0 -f SCHED_LAT=0 "$here/$group" "calibration-$group" "${knobs[@]}"
