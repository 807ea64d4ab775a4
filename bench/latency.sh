#!/usr/bin/env bash
# Wakeup latency of fair tasks next to a hackbench load, as a workload for
# ab-run.sh: rt-tests cyclictest runs SECONDS with one SCHED_OTHER thread
# per CPU (the threads the wakeup switches place) while hackbench runs in a
# loop with HACKBENCH_ARGs. Prints "sp-metric: NAME VALUE" lines, which
# ab-run.sh passes on: the 50th and 99th percentile and the maximum latency
# over all threads (us), and the share of samples past the histogram's end
# (LAT_HIST_US, 100 ms; a percentile that falls there reads as that end, a
# lower bound). LAT_INTERVAL_US sets cyclictest's period (1000 us).
#
#   latency.sh SECONDS HACKBENCH_ARG...
#
# Under QEMU TCG the latencies are those of an emulated machine: compare A
# with B, never with hardware.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || { echo "usage: latency.sh SECONDS HACKBENCH_ARG..." >&2; exit 2; }
secs=$1
shift
for b in cyclictest hackbench; do
	command -v "$b" >/dev/null || { echo "error: $b not found; install rt-tests (make deps)" >&2; exit 1; }
done
hist=${LAT_HIST_US:-100000}
d=$(mktemp -d)
hb=
# The hackbench loop runs in a process group of its own (setsid), so that
# a signal to us stops it with whatever hackbench it is running.
cleanup_on_exit '[ -z "$hb" ] || kill -TERM -- "-$hb" 2>/dev/null; rm -rf "$d"'
setsid bash -c 'while [ ! -e "$1/stop" ]; do hackbench "${@:2}" >/dev/null || exit 1; done' _ "$d" "$@" &
hb=$!
cyclictest -q -m -t -i "${LAT_INTERVAL_US:-1000}" -D "$secs" -h "$hist" --json="$d/json" >"$d/out" 2>&1 ||
	{ echo "error: cyclictest failed: $(cat "$d/out")" >&2; exit 1; }
touch "$d/stop"
rc=0
wait "$hb" || rc=$?
hb=
[ "$rc" = 0 ] || { echo "error: hackbench $* failed (exit $rc)" >&2; exit 1; }
# The JSON report lists each thread's non-empty buckets, its cycles and its
# maximum. --histfile would write every bucket of every thread: 100 000 lines
# of 64 columns on 64 CPUs, which took minutes to write and read under TCG.
# Samples past the histogram's end are the cycles no bucket holds. A thread
# with every sample past the end has "histogram": { }, on one line.
awk -v lim="$hist" '
	/"histogram": [{]/ { inh = !/[}]/; next }
	inh && /[}]/ { inh = 0; next }
	{ gsub(/[",:]/, " ") }
	inh { c[$1 + 0] += $2; tot += $2; next }
	$1 == "cycles" { cyc += $2; next }
	$1 == "max" { if ($2 + 0 > max) max = $2 + 0; next }
	function pct(q,    cum, us) {
		cum = 0
		for (us = 0; us < lim; us++) {
			cum += c[us]
			if (cum >= q * cyc) return us
		}
		return lim
	}
	END {
		if (cyc == 0) { print "error: cyclictest recorded no sample" > "/dev/stderr"; exit 1 }
		printf "sp-metric: lat_p50_us %d\n", pct(0.50)
		printf "sp-metric: lat_p99_us %d\n", pct(0.99)
		printf "sp-metric: lat_max_us %d\n", max
		printf "sp-metric: lat_overflow_pct %.3f\n", 100 * (cyc - tot) / cyc
	}' "$d/json"
