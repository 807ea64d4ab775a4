#!/usr/bin/env bash
# scripts/console-check.sh finds splats and ignores the kernel command line.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
printf '[    0.000000] Command line: console=ttyS0 panic=-1\n[    1.0] ok\n[    0.5] rcu: \tRCU lockdep checking is enabled.\n[    0.6] KernelAddressSanitizer initialized (generic)\n' >"$t/clean"
"$TOP/scripts/console-check.sh" "$t/clean" || fail "clean log flagged"
for s in 'WARNING: CPU: 3 PID: 1 at kernel/sched/fair.c:100 foo' 'BUG: kernel NULL pointer dereference' \
	'Oops: int3: 0000 [#1] SMP' 'Kernel panic - not syncing: VFS' 'rcu: INFO: rcu_sched self-detected stall on CPU' \
	'BUG: KASAN: slab-out-of-bounds in foo' 'WARNING: possible circular locking dependency detected' \
	'INFO: lockdep is turned off.' 'DEBUG_LOCKS_WARN_ON(1)'; do
	printf '[    0.0] Command line: x\n[    2.5] %s\n' "$s" >"$t/bad"
	out=$("$TOP/scripts/console-check.sh" "$t/bad") && fail "missed: $s"
	[ "$out" = "$s" ] || fail "reported '$out' for '$s'"
done
