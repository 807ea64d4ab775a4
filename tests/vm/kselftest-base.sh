#!/usr/bin/env bash
# The same kselftest binary on the unpatched base kernel: every feature test
# reports SKIP, nothing fails, the bad-input test (which needs no feature of
# ours) passes, and the runner exits 4 (KSFT_SKIP).
. "$(dirname "$0")/../lib.sh"
bin=$("$TOP/scripts/build-selftests.sh") || fail "building the kselftest failed"
kernel=$(base_kernel) || fail "no base kernel"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
rc=0
"$TOP/scripts/vm.sh" -k "$kernel" -t 600 -- "$bin" >"$t/tap" 2>&1 || rc=$?
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$t/tap")
[ -n "$plan" ] || fail "no TAP plan (exit $rc): $(tail -n 20 "$t/tap")"
grep -E '^not ok' "$t/tap" && fail "failures on the base kernel: $(cat "$t/tap")"
grep -qE '^ok [0-9]+ features_bad_input$' "$t/tap" || fail "features_bad_input did not pass: $(cat "$t/tap")"
skips=$(grep -cE '^ok [0-9]+ # SKIP ' "$t/tap")
[ "$skips" = $((plan - 1)) ] || fail "$skips of $((plan - 1)) feature tests skipped: $(cat "$t/tap")"
[ "$rc" = 4 ] || fail "runner exit $rc, want 4 (KSFT_SKIP)"
echo "# base kernel: $skips skipped, features_bad_input ok, 0 failed, exit 4"
