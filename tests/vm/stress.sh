#!/usr/bin/env bash
# check: full, budget 600 s
# The short `make stress` (see scripts/stress.sh) on the VM kernel, so that it
# fits in make check: 60 s of hackbench, triad threads, a pipe ring and an RT
# duty-cycle task while the switches flip in random combinations and all on,
# sis_small_llc takes valid and invalid writes, sis_scan and sis_wake are
# read and cleared, CPUs go offline and online (one CPU, one LLC, a node but
# one CPU) and the load's threads change affinity. The console must stay
# clean, everything must end as it started, and the fit and the bias must
# each have decided a wakeup. `make stress` runs the same for 40 min on the debug
# kernel (lockdep, KASAN). The run's console is not kept (a splat's first
# report is in the output).
. "$(dirname "$0")/../lib.sh"
SP_RESULTS=$(mktemp -d)
export SP_RESULTS
cleanup_on_exit 'rm -rf "$SP_RESULTS"'
# The minimums show that the storm and the hotplug really ran, not how fast:
# in make check, next to another guest, one run made 299 flips and 21
# hotplug cycles (20 s of storm, 40 s of hotplug). The bias decides only
# in the storm (not with SIS_LIMIT_STACKING on): -f 1, that both fired.
FLAVOR=vm "$TOP/scripts/stress.sh" -p 2s8llc -d 60 -t 50 -m 5 -f 1 | grep -E '^# ' | tail -n 40
exit "${PIPESTATUS[0]}"
