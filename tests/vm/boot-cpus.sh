#!/usr/bin/env bash
# check: full, budget 240 s
# vm.sh -c: booted with 4 of 2s4llc's 16 CPUs (maxcpus=4), the guest brings
# the other 12 online before the topology check, which then passes, and
# the command sees 16 CPUs. Without the onlining the check fails (97).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
out=$(VM_KEEP=$t "$TOP/scripts/vm.sh" -p 2s4llc -c 4 -- nproc) ||
	fail "boot with -c 4 failed (exit $?)"
[ "$out" = 16 ] || fail "want 16 CPUs online in the command, got: $out"
grep -q 'maxcpus=4' "$t/console.log" || fail "the guest did not boot with maxcpus=4"
echo "# 16 CPUs online after a boot with 4"
