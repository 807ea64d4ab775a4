#!/usr/bin/env bash
# check: quick, budget 60 s
# scripts/kselftest-tally.sh, the table of `make kselftest-repeat`: counts per
# test in the order the tests ran, the median of an even number of runs,
# SKIP and a run without a verdict (the runner crashed) told apart from ok,
# the exit status weighed with the verdict, exit 1 on any failure and 2 on
# a summary with no run.
. "$(dirname "$0")/../lib.sh"
T=$TOP/scripts/kselftest-tally.sh
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
cat >"$t/ok" <<'S'
tests: b_test a_test
run 1 b_test rc=0 verdict=[ok] secs=30 elapsed=30
run 1 a_test rc=4 verdict=[ok # SKIP] secs=1 elapsed=31
run 2 b_test rc=0 verdict=[ok] secs=40 elapsed=71
run 2 a_test rc=0 verdict=[ok] secs=3 elapsed=74
run 3 b_test rc=0 verdict=[ok] secs=20 elapsed=94
done
S
out=$("$T" "$t/ok") || fail "exit $? on a summary with no failure: $out"
echo "$out" | sed 's/^/# /'
echo "$out" | sed -n 2p | grep -qE '^b_test +3 +3 +0 +0  20/30/40$' || fail "b_test row wrong (first, 3 runs, median 30)"
echo "$out" | sed -n 3p | grep -qE '^a_test +2 +1 +0 +1  1/2/3$' || fail "a_test row wrong (a SKIP, median of two 2)"
echo "$out" | grep -qx '# 5 runs of 2 tests: 4 ok, 0 not ok, 1 skipped' || fail "totals line wrong"
# A failure and a run that printed no verdict (crash) both count as not ok.
{ cat "$t/ok"; echo 'run 4 b_test rc=1 verdict=[not ok] secs=9 elapsed=99'
  echo 'run 4 a_test rc=139 verdict=[none] secs=0 elapsed=99'; } >"$t/bad"
rc=0
out=$("$T" "$t/bad") || rc=$?
[ "$rc" = 1 ] || fail "exit $rc on a summary with failures, want 1: $out"
echo "$out" | grep -qE '^b_test +4 +3 +1 +0 ' || fail "not ok not counted: $out"
echo "$out" | grep -qE '^a_test +3 +1 +1 +1 ' || fail "run without a verdict not counted as not ok: $out"
# The exit status decides too: ok then a crash (139) is not ok, and so is
# a SKIP whose runner did not exit 4; a whole-runner skip ("1..0 # SKIP",
# no verdict line) that exited 4 is a skip.
cat >"$t/rc" <<'S'
tests: c_test
run 1 c_test rc=139 verdict=[ok] secs=5 elapsed=5
run 2 c_test rc=4 verdict=[none] secs=0 elapsed=5
run 3 c_test rc=1 verdict=[ok # SKIP] secs=0 elapsed=5
run 4 c_test rc=0 verdict=[ok] secs=5 elapsed=10
done
S
rc=0
out=$("$T" "$t/rc") || rc=$?
[ "$rc" = 1 ] || fail "exit $rc on a crash after ok, want 1: $out"
echo "$out" | grep -qE '^c_test +4 +1 +2 +1 ' || fail "exit statuses not counted (want 1 ok, 2 not ok, 1 skip): $out"
echo 'tests: x' >"$t/empty"
expect_error 2 'no run in the summary' -- "$T" "$t/empty"
expect_error 2 usage -- "$T" "$t/none"
