#!/usr/bin/env bash
# check: quick, budget 240 s
# The series' KUnit suite runs at boot in the VM kernel and passes: its TAP
# in dmesg has the suite's "ok" line, every case ran, and nothing "not ok".
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib/kunit.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
VM_KEEP=$t "$TOP/scripts/vm.sh" -- true || fail "boot failed (exit $?)"
tap=$(kunit_suite_tap "$t/dmesg")
[ -n "$tap" ] || fail "no sched_placement KUnit suite in dmesg (CONFIG_SCHED_PLACEMENT_KUNIT_TEST?)"
echo "$tap" | grep -q 'not ok' && fail "KUnit failures: $(echo "$tap" | grep -B3 'not ok')"
# A skipped case prints "ok N name # SKIP reason": it ran nothing, so it must
# not count as a pass (a missing config or topology would otherwise hide here).
echo "$tap" | grep -q '# SKIP' && fail "KUnit skips: $(echo "$tap" | grep '# SKIP')"
echo "$tap" | grep -qE '^ok [0-9]+ sched_placement$' || fail "suite did not pass: $tap"
# 3 parameterised tests (17 scan-depth, 12 room and 7 NUMA cases) and the
# full-mask test of task_cpus_in_group(): 36 case lines and 4 test lines.
n=$(echo "$tap" | grep -cE '^ +ok [0-9]+ ' || true)
[ "$n" -ge 40 ] || fail "only $n results passed, want 36 cases + 4 tests: $tap"
echo "# sched_placement: $n results ok (36 cases in 4 tests)"
