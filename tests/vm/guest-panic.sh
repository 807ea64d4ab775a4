#!/usr/bin/env bash
# A guest that panics (here: no root filesystem) is a failure, reported as such.
# It dies before the command starts, so vm.sh boots it once more (it does that
# for early-boot deaths) and says so; the second death fails the run.
. "$(dirname "$0")/../lib.sh"
rc=0
out=$("$TOP/scripts/vm.sh" -t 120 -a "root=/dev/nonexistent" -- true 2>&1) || rc=$?
[ "$rc" = 99 ] || fail "exit $rc, want 99: $out"
echo "$out" | grep -q 'guest died before the command finished' || fail "no death report: $out"
echo "$out" | grep -q 'died while booting, before the command started (.*); booting once more' ||
	fail "no notice of the second boot: $out"
echo "# $(echo "$out" | grep -m1 'booting once more')"
rc=0
out=$(VM_RETRY=0 "$TOP/scripts/vm.sh" -t 120 -a "root=/dev/nonexistent" -- true 2>&1) || rc=$?
[ "$rc" = 99 ] || fail "VM_RETRY=0: exit $rc, want 99: $out"
echo "$out" | grep -q 'booting once more' && fail "VM_RETRY=0 booted twice: $out"
echo "# VM_RETRY=0: one boot, exit 99"
