#!/usr/bin/env bash
# check: full, budget 2400 s
# The same kselftest install on the unpatched base kernel: every test that
# needs a switch of the series reports SKIP, nothing fails, and
# features_bad_input (which needs no feature of ours) passes.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib/kbuild.sh"
dir=$("$TOP/scripts/build-selftests.sh") || fail "building the kselftests failed"
kernel=$(base_kernel) || fail "no base kernel"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
rc=0
"$TOP/scripts/vm.sh" -k "$kernel" -t 600 -- "$dir/run_kselftest.sh" >"$t/tap" 2>&1 || rc=$?
counts=$("$TOP/scripts/kselftest-tap.sh" "$t/tap") || true
eval "$(echo "$counts" | head -n1)"
[ "$programs" -gt 0 ] || fail "no program ran (exit $rc): $(tail -n 20 "$t/tap")"
[ "$prog_fail" = 0 ] && [ "$notok" = 0 ] || fail "failures on the base kernel: $(cat "$t/tap")"
grep -qE '^# ok [0-9]+ placement\.features_bad_input$' "$t/tap" ||
	fail "features_bad_input did not pass: $(cat "$t/tap")"
[ "$tests" = "$plan" ] || fail "$tests verdicts for a plan of $plan tests: $(cat "$t/tap")"
[ "$ok" = 1 ] && [ "$skip" = $((plan - 1)) ] ||
	fail "$skip of the $((plan - 1)) tests that need the series skipped, $ok passed: $(cat "$t/tap")"
[ "$rc" = 0 ] || fail "run_kselftest.sh exit $rc"
echo "# base kernel: $skip of $plan tests skipped, features_bad_input ok, 0 failed"
