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
# -c N: the first report in full, N lines from its first line.
printf '[    1.0] ok\n[    2.0] WARNING: at kernel/sched/core.c:1 set_task_cpu\n[    2.1] Call Trace:\n[    2.2]  try_to_wake_up\n[    2.3] later\n' >"$t/trace"
out=$("$TOP/scripts/console-check.sh" -c 3 "$t/clean" "$t/trace") && fail "-c: missed the WARNING"
want='WARNING: at kernel/sched/core.c:1 set_task_cpu
--- the first report, from trace:
[    2.0] WARNING: at kernel/sched/core.c:1 set_task_cpu
[    2.1] Call Trace:
[    2.2]  try_to_wake_up'
[ "$out" = "$want" ] || fail "-c 3 printed: $out"
