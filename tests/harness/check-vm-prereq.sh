#!/usr/bin/env bash
# check: quick, budget 60 s
# make check with CHECK_ONLY selecting only a VM test runs the tools and
# kernel steps first, and when the kernel step fails the VM test fails
# unrun instead of booting whatever older kernel build/ holds. The kernel
# step is made to fail at once with a KSRC that is no kernel tree, in a
# BUILD of its own (nothing of build/ is touched).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
rc=0
KSRC=$t/none BUILD=$t/build TMPDIR=$t CHECK_ONLY='^vm: guest-panic$' "$TOP/scripts/check.sh" >"$t/out" 2>&1 || rc=$?
sed 's/^/# /' "$t/out"
[ "$rc" = 1 ] || fail "make check exited $rc, want 1"
grep -qx 'ok 1 - tools: build bench/stats' "$t/out" || fail "the tools step did not run first"
grep -q '^not ok 2 - kernel: build the VM kernel' "$t/out" || fail "the kernel step did not run, or passed"
grep -q '^not ok 3 - vm: guest-panic (exit 1)' "$t/out" || fail "the VM test was not failed"
grep -q 'not run: the tools or kernel step failed' "$t/out" || fail "no reason given for the VM test"
[ ! -e "$t/build/linux" ] || fail "a tree was made in BUILD"
pgrep -f "qemu-system.*$t" >/dev/null && fail "a guest was started"
grep -qx '1 passed, 2 failed, 0 skipped' "$t/out" || fail "wrong totals"
