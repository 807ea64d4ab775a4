#!/usr/bin/env bash
# check: full, budget 600 s
# The short `make stress` (see scripts/stress.sh) on the VM kernel, so that it
# fits in make check: 60 s of hackbench, triad threads and a pipe ring while
# the switches flip in random combinations, sis_small_llc
# takes valid and invalid writes, sis_scan is read and cleared, CPUs go
# offline and online (one CPU, one LLC, a node but one CPU) and the load's
# threads change affinity. The console must stay clean and everything must
# end as it started. `make stress` runs the same for 40 min on the debug
# kernel (lockdep, KASAN). The run's console is not kept (a splat's first
# report is in the output).
. "$(dirname "$0")/../lib.sh"
SP_RESULTS=$(mktemp -d)
export SP_RESULTS
cleanup_on_exit 'rm -rf "$SP_RESULTS"'
# The minimums show that the storm and the hotplug really ran, not how fast:
# in make check, next to another guest, one run made 299 flips and 21
# hotplug cycles (20 s of storm, 40 s of hotplug).
FLAVOR=vm "$TOP/scripts/stress.sh" -p 2s8llc -d 60 -t 50 -m 5 | grep -E '^# ' | tail -n 22
exit "${PIPESTATUS[0]}"
