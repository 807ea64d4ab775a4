# The KUnit suite's TAP out of a guest's console or dmesg; for stress and tests/vm/kunit.sh.
# shellcheck shell=bash

# The sched_placement KUnit suite's TAP from a guest's dmesg or console (timestamps cut).
kunit_suite_tap() {
	# the serial console ends its lines with CR LF
	{ tr -d '\r' <"$1"; } 2>/dev/null | sed -E 's/^\[ *[0-9.]+\] //' |
		sed -n '/# Subtest: sched_placement/,/ok [0-9]* sched_placement/p'
}
