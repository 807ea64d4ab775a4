#!/usr/bin/env bash
# Counts in the TAP of run_kselftest.sh: the programs (top level, "ok N
# selftests: sched/placement: PROG") and the tests inside them (kselftest
# harness lines, prefixed by "# " by the runner). Prints one line of
# counts, then a line naming the tests that failed and one naming those
# skipped, each with its program:
#   programs=4 prog_ok=4 prog_fail=0 prog_skip=0 plan=12 tests=12 ok=12 notok=0 skip=0
#   failed: PROG:TEST...
#   skipped: PROG:TEST...
# plan is the sum of the programs' own plans; tests the verdicts found, so
# a program that died halfway shows as tests < plan. Exit 1 if a program
# or a test failed, or no TAP plan was found.
#   kselftest-tap.sh TAP
set -euo pipefail
[ $# = 1 ] && [ -f "$1" ] || { echo "usage: kselftest-tap.sh TAP" >&2; exit 2; }
awk '
# Guest consoles end lines with \r.
{ sub(/\r$/, "") }
/^1\.\.[0-9]+$/ { top_plan = substr($0, 4) + 0; next }
/^(not )?ok [0-9]+ selftests: / {
	programs++
	if ($0 ~ /^not ok/) prog_fail++
	else if ($0 ~ / # SKIP/) prog_skip++
	else prog_ok++
	prog = ""
	next
}
/^# selftests: / { prog = $0; sub(/.*: /, "", prog); next }
/^# 1\.\.[0-9]+$/ { plan += substr($0, 6) + 0; next }
/^# (not )?ok [0-9]+ / {
	name = $0; sub(/^# (not )?ok [0-9]+ /, "", name); sub(/ #.*/, "", name)
	sub(/^[^.]*\./, "", name)
	tests++
	if ($0 ~ /^# not ok/) { fail++; failed = failed " " prog ":" name }
	else if ($0 ~ / # SKIP/) { skip++; skipped = skipped " " prog ":" name }
	else ok++
}
END {
	printf "programs=%d prog_ok=%d prog_fail=%d prog_skip=%d plan=%d tests=%d ok=%d notok=%d skip=%d\n",
		programs, prog_ok, prog_fail, prog_skip, plan, tests, ok, fail, skip
	print "failed:" failed
	print "skipped:" skipped
	exit !(top_plan > 0 && prog_fail == 0 && fail == 0)
}' "$1"
