#!/usr/bin/env bash
# check: quick, budget 60 s
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
# KCSAN_SCOPE: a KCSAN report is a splat only if its title or a frame of
# either stack names a function of the scope; without KCSAN_SCOPE every
# report is one. Reports as the KCSAN kernel prints them.
printf 'select_idle_cpu\nsis_scan_account\n' >"$t/scope"
kcsan_report() { # TITLE FRAME1 FRAME2
	printf '[  5.0] ==================================================================\n[  5.0] BUG: KCSAN: data-race in %s\n[  5.0] \n' "$1"
	printf '[  5.0] read to 0xffffffff81c7f040 of 8 bytes by task 12 on cpu 3:\n[  5.0]  %s+0x1d/0x30\n[  5.0]  kthread+0x23e/0x260\n[  5.0] \n' "$2"
	printf '[  5.0] write to 0xffffffff81c7f040 of 8 bytes by task 13 on cpu 1:\n[  5.0]  %s+0x10/0x20\n[  5.0] \n' "$3"
	printf '[  5.0] value changed: 0x6fff -> 0x6fbf\n[  5.0] ==================================================================\n'
}
kcsan_report 'mas_prev_slot / mte_set_node_dead' mas_prev_slot mte_set_node_dead >"$t/mainline"
out=$("$TOP/scripts/console-check.sh" "$t/mainline") && fail "KCSAN report passed without KCSAN_SCOPE"
[ "$out" = 'BUG: KCSAN: data-race in mas_prev_slot / mte_set_node_dead' ] || fail "KCSAN without scope reported: $out"
out=$(KCSAN_SCOPE=$t/scope "$TOP/scripts/console-check.sh" -c 5 "$t/mainline" 2>"$t/err") ||
	fail "a KCSAN report outside the scope failed the log: $out"
grep -q '1 distinct KCSAN report(s) outside' "$t/err" && grep -q '  BUG: KCSAN: data-race in mas_prev_slot' "$t/err" ||
	fail "the report outside the scope is not listed: $(cat "$t/err")"
kcsan_report 'select_idle_cpu.isra.0 / update_sg_lb_stats' 'select_idle_cpu.isra.0' update_sg_lb_stats >"$t/title"
kcsan_report 'cpumask_next / idle_cpu' cpumask_next 'sis_scan_account.constprop.0' >"$t/frame"
for f in title frame; do
	out=$(KCSAN_SCOPE=$t/scope "$TOP/scripts/console-check.sh" -c 2 "$t/mainline" "$t/$f" 2>/dev/null) &&
		fail "KCSAN report in the scope ($f) passed"
	title=$(sed -n 's/^\[ *[0-9.]*\] BUG/BUG/p' "$t/$f")
	[ "$(echo "$out" | head -n 1)" = "$title" ] || fail "KCSAN in scope ($f): reported $out"
	echo "$out" | grep -qF "[  5.0] $title" || fail "-c printed another report than the one in scope ($f): $out"
	echo "$out" | grep -q 'mas_prev_slot / mte' && fail "the report outside the scope was counted ($f): $out"
done
# In the scope by its title alone (no frame of the scope); a title seen once
# in the scope and once outside it counts; a serial console's CR endings.
kcsan_report 'select_idle_cpu / update_sg_lb_stats' cpumask_next update_sg_lb_stats >"$t/titleonly"
kcsan_report 'cpumask_next / idle_cpu' cpumask_next idle_cpu >"$t/shared"
sed 's/$/\r/' "$t/frame" >"$t/cr"
for f in titleonly shared cr; do
	cat "$t/mainline" >"$t/log"
	[ "$f" != shared ] || cat "$t/shared" >>"$t/log"
	cat "$t/$f" >>"$t/log"
	[ "$f" != shared ] || cat "$t/frame" >>"$t/log"
	out=$(KCSAN_SCOPE=$t/scope "$TOP/scripts/console-check.sh" -c 2 "$t/log" 2>/dev/null) &&
		fail "KCSAN report in the scope ($f) passed"
	case $f in
	titleonly) want='BUG: KCSAN: data-race in select_idle_cpu / update_sg_lb_stats' ;;
	*) want='BUG: KCSAN: data-race in cpumask_next / idle_cpu' ;;
	esac
	[ "$(echo "$out" | head -n 1)" = "$want" ] || fail "KCSAN in scope ($f): reported $out"
	[ "$(echo "$out" | grep -c 'BUG: KCSAN')" = 2 ] || fail "KCSAN in scope ($f): -c printed $out"
done
# A WARNING still fails with a scope, and an unreadable scope is an error.
printf '[ 6.0] WARNING: at kernel/sched/core.c:1 set_task_cpu\n' >>"$t/mainline"
KCSAN_SCOPE=$t/scope "$TOP/scripts/console-check.sh" "$t/mainline" >/dev/null 2>&1 && fail "WARNING passed with KCSAN_SCOPE"
expect_error 2 'KCSAN_SCOPE=.*no such file' -- env KCSAN_SCOPE=$t/none "$TOP/scripts/console-check.sh" "$t/mainline"
exit 0
