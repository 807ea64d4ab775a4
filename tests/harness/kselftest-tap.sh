#!/usr/bin/env bash
# check: quick, budget 60 s
# scripts/kselftest-tap.sh, which reads run_kselftest.sh's TAP for the
# kselftest stages: counts of programs and of the tests inside them, the
# failed and skipped tests by name, and its exit status, on TAP written as
# the runner writes it (the harness's lines behind "# ").
. "$(dirname "$0")/../lib.sh"
T=$TOP/scripts/kselftest-tap.sh
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
cat >"$t/pass" <<'TAP'
TAP version 13
1..2
# timeout set to 900
# selftests: sched/placement: features_test
# TAP version 13
# 1..2
# # Starting 2 tests from 1 test cases.
# #  RUN           placement.features_toggle ...
# # features_toggle is at bit 33
# #            OK  placement.features_toggle
# ok 1 placement.features_toggle
# ok 2 placement.features_bad_input
# # PASSED: 2 / 2 tests passed.
ok 1 selftests: sched/placement: features_test
# selftests: sched/placement: numa_test
# TAP version 13
# 1..1
# ok 1 placement.numa_imb_pinned # SKIP needs 2 nodes
ok 2 selftests: sched/placement: numa_test # SKIP
TAP
out=$("$T" "$t/pass") || fail "a run with a skip and no failure exited $?: $out"
[ "$(echo "$out" | head -n1)" = "programs=2 prog_ok=1 prog_fail=0 prog_skip=1 plan=3 tests=3 ok=2 notok=0 skip=1" ] ||
	fail "counts of the passing run: $out"
echo "$out" | grep -qx 'skipped: numa_test:numa_imb_pinned' || fail "skipped test not named: $out"
echo "$out" | grep -qx 'failed:' || fail "a failure named in a passing run: $out"
# A failed test, and a program killed after its first test (its plan of 3
# with one verdict) that the runner reports as a timeout.
cat >"$t/fail" <<'TAP'
TAP version 13
1..2
# selftests: sched/placement: wakeup_test
# 1..2
# ok 1 placement.util_fits_capacity
# # wakeup_test.c:150:bias_prev:Expected med[1] <= 0.5 * med[0]
# not ok 2 placement.bias_prev
not ok 1 selftests: sched/placement: wakeup_test # exit=1
# selftests: sched/placement: sis_scan_test
# 1..3
# ok 1 placement.sis_scan_depth
not ok 2 selftests: sched/placement: sis_scan_test # TIMEOUT 900 seconds
TAP
rc=0
out=$("$T" "$t/fail") || rc=$?
[ "$rc" = 1 ] || fail "a run with failures exited $rc, want 1: $out"
[ "$(echo "$out" | head -n1)" = "programs=2 prog_ok=0 prog_fail=2 prog_skip=0 plan=5 tests=3 ok=2 notok=1 skip=0" ] ||
	fail "counts of the failing run: $out"
echo "$out" | grep -qx 'failed: wakeup_test:bias_prev' || fail "failed test not named: $out"
# No plan at all (the guest died before the runner started).
printf 'Booting\n' >"$t/none"
rc=0
"$T" "$t/none" >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "TAP without a plan exited $rc, want 1"
expect_error 2 "usage: kselftest-tap.sh TAP" -- "$T" "$t/missing"
echo "# counts, names and exit status right on a passing, a failing and an empty TAP"
