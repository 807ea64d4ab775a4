#!/usr/bin/env bash
# check: quick, budget 60 s
# scripts/console-check.sh's line-level KCSAN scope (KCSAN_LINES, the
# series' lines; KCSAN_VMLINUX and FADDR2LINE to place each report's access
# sites): a report whose site is a series line fails the log; one whose
# sites are base lines inside a function the series touched passes, listed
# as outside; a site whose inline chain has a series line (the access in an
# inlined helper) is the series'; a "race at unknown origin" report's one
# site counts. Each distinct site is resolved once, and once for all with a
# KCSAN_FRAMES cache. The output names the scope that ran, and the function
# scope (KCSAN_SCOPE) is the fallback when faddr2line cannot place lines
# (no debug info); KCSAN_REPORTS gets one verdict per report. Reports as
# the KCSAN kernel prints them (Documentation/dev-tools/kcsan.rst), a stand-in
# faddr2line (fixtures/faddr2line).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
export FADDR2LINE=$TOP/tests/harness/fixtures/faddr2line FAKE_MAP=$t/map FAKE_LOG=$t/calls
: >"$t/vmlinux"
# The series' lines and functions.
printf 'kernel/sched/fair.c:7001\nkernel/sched/fair.c:7890\nkernel/sched/debug.c:65\n' >"$t/lines"
printf 'sis_scan_account\nselect_idle_cpu\nsched_balance_find_dst_group\n' >"$t/scope"
# Where each site is: a series line; base lines in a function the series
# changed (an inlined base helper, called from a base line); an inlined base
# helper called from a series line (an absolute path, a discriminator); base.
tab=$'\t'
{
	echo "sis_scan_account+0x10/0x20${tab}sis_scan_account at kernel/sched/fair.c:7001"
	echo "sched_balance_find_dst_group+0x23e/0x8bf${tab}update_sg_wakeup_stats at kernel/sched/fair.c:10500|(inlined by) sched_balance_find_dst_group at kernel/sched/fair.c:10600"
	echo "select_idle_cpu+0x50/0x300${tab}cpumask_test_cpu at include/linux/cpumask.h:600|(inlined by) select_idle_cpu at /home/u/sp/build/linux/kernel/sched/fair.c:7890 (discriminator 2)"
	echo "enqueue_task_fair+0x99/0x900${tab}enqueue_task_fair at kernel/sched/fair.c:7000"
	echo "update_cfs_rq_load_avg+0x4d/0x200${tab}update_cfs_rq_load_avg at kernel/sched/fair.c:4600"
} >"$t/map"
kcsan_report() { # TITLE SITE1 [SITE2]: two stacks, or one of unknown origin
	printf '[    5.000000] ==================================================================\n[    5.000000] BUG: KCSAN: data-race in %s\n[    5.000000] \n' "$1"
	if [ $# = 3 ]; then
		printf '[    5.000000] write to 0xffff88800f42d0a8 of 8 bytes by task 12 on cpu 3:\n[    5.000000]  %s\n[    5.000000]  wake_up_new_task+0x1c4/0x3f0\n[    5.000000]  kernel_clone+0x11a/0x4d0\n[    5.000000] \n' "$3"
		printf '[    5.000000] read (marked) to 0xffff88800f42d0a8 of 8 bytes by interrupt on cpu 1:\n'
	else
		printf '[    5.000000] race at unknown origin, with read to 0xffff88800f42d0a8 of 4 bytes by task 13 on cpu 1:\n'
	fi
	printf '[    5.000000]  %s\n[    5.000000]  sched_balance_rq+0x3a1/0xd80\n[    5.000000] \n' "$2"
	printf '[    5.000000] value changed: 0x00000003 -> 0x00000004\n[    5.000000] \n[    5.000000] Reported by Kernel Concurrency Sanitizer on:\n'
	printf '[    5.000000] CPU: 1 UID: 0 PID: 13 Comm: sp-stress Not tainted 7.3.4 #1\n[    5.000000] ==================================================================\n'
}
base='BUG: KCSAN: data-race in enqueue_task_fair / sched_balance_find_dst_group'
ours='BUG: KCSAN: data-race in sis_scan_account / update_cfs_rq_load_avg'
inl='BUG: KCSAN: data-race in select_idle_cpu+0x50/0x300'
kcsan_report 'enqueue_task_fair / sched_balance_find_dst_group' 'sched_balance_find_dst_group+0x23e/0x8bf' 'enqueue_task_fair+0x99/0x900' >"$t/base"
kcsan_report 'sis_scan_account / update_cfs_rq_load_avg' 'update_cfs_rq_load_avg+0x4d/0x200' 'sis_scan_account+0x10/0x20' >"$t/ours"
kcsan_report 'select_idle_cpu+0x50/0x300' 'select_idle_cpu+0x50/0x300' >"$t/inlined"
check() { # LOG...: console-check with the line scope, output in $t/out and $t/err
	KCSAN_LINES=$t/lines KCSAN_VMLINUX=$t/vmlinux KCSAN_SCOPE=${SCOPE-$t/scope} \
		"$TOP/scripts/console-check.sh" -c 3 "$@" >"$t/out" 2>"$t/err"
}
# A base race inside a function the series changed (in its function scope)
# passes, listed as outside the series' lines; the scope that ran is named.
check "$t/base" "$t/base" || fail "a base race in a series function failed the log: $(cat "$t/out" "$t/err")"
grep -q "KCSAN scope: the series' lines (3 in $t/lines)" "$t/err" || fail "the line scope is not named: $(cat "$t/err")"
grep -q "1 distinct KCSAN report(s) outside the series' lines" "$t/err" && grep -qxF "  $base" "$t/err" ||
	fail "the base race is not listed as outside: $(cat "$t/err")"
# A site on a series line fails, the base report beside it does not count.
cat "$t/base" "$t/ours" "$t/base" >"$t/log"
: >"$t/calls"
check "$t/log" && fail "a race on a series line passed"
[ "$(head -n 1 "$t/out")" = "$ours" ] || fail "reported: $(cat "$t/out")"
grep -qF "$base" "$t/out" && fail "the base race was counted: $(cat "$t/out")"
grep -qF "  $ours: sis_scan_account+0x10/0x20 at kernel/sched/fair.c:7001" "$t/err" ||
	fail "the series line the report is at is not named: $(cat "$t/err")"
grep -qF -- "--- the first report, from log:" "$t/out" && grep -qF "[    5.000000] $ours" "$t/out" ||
	fail "-c printed another report: $(cat "$t/out")"
# Each distinct site once per call: three reports, four sites, one call.
[ "$(wc -l <"$t/calls")" = 1 ] || fail "faddr2line ran $(wc -l <"$t/calls") times"
[ "$(tr ' ' '\n' <"$t/calls" | sed 1d | sort | uniq -d)" = "" ] || fail "a site was resolved twice: $(cat "$t/calls")"
# The access in a base helper inlined at a series line (a path and a
# discriminator as addr2line prints them), of unknown origin: the series'.
check "$t/inlined" && fail "a race in a helper inlined at a series line passed"
[ "$(head -n 1 "$t/out")" = "$inl" ] || fail "inlined: reported $(cat "$t/out")"
grep -qF "at /home/u/sp/build/linux/kernel/sched/fair.c:7890 (inlined through it; the access at include/linux/cpumask.h:600)" "$t/err" ||
	fail "inlined: the chain is not named: $(cat "$t/err")"
# KCSAN_FRAMES: the sites placed once for all; KCSAN_REPORTS: one verdict a report.
: >"$t/calls"
KCSAN_FRAMES=$t/frames check "$t/log" && fail "with KCSAN_FRAMES: a race on a series line passed"
KCSAN_FRAMES=$t/frames KCSAN_REPORTS=$t/verdicts check "$t/log" && fail "cached: a race on a series line passed"
[ "$(wc -l <"$t/calls")" = 1 ] || fail "the KCSAN_FRAMES cache did not spare faddr2line: $(cat "$t/calls")"
grep -qxF "sis_scan_account+0x10/0x20${tab}kernel/sched/fair.c:7001" "$t/frames" || fail "KCSAN_FRAMES holds: $(cat "$t/frames")"
[ "$(sort "$t/verdicts" | uniq -c | sed 's/^ *//')" = "1 IN $ours
2 OUT $base" ] || fail "KCSAN_REPORTS holds: $(cat "$t/verdicts")"
# A site faddr2line cannot place: the report is judged by the function scope.
kcsan_report 'select_idle_cpu / idle_cpu' 'select_idle_cpu+0x77/0x300' 'idle_cpu+0x5/0x40' >"$t/lost"
check "$t/lost" && fail "a report without lines, in the function scope, passed"
grep -q "2 access site(s) that faddr2line could not place" "$t/err" || fail "unplaced sites not said: $(cat "$t/err")"
SCOPE='' check "$t/lost" || fail "a report without lines and no function scope failed"
# No debug info: faddr2line fails, and the function scope runs, saying so;
# there the base race in a series function counts, as it always did.
FAKE_FAIL=1 check "$t/base" && fail "fallback: a report in the series' functions passed"
grep -q "KCSAN line scope unavailable: .*CONFIG_DEBUG_INFO not enabled.*falling back to the function scope" "$t/err" &&
	grep -q "KCSAN scope: the series' functions ($t/scope)" "$t/err" || fail "the fallback is not said: $(cat "$t/err")"
[ "$(head -n 1 "$t/out")" = "$base" ] || fail "fallback: reported $(cat "$t/out")"
FAKE_FAIL=1 SCOPE='' check "$t/base"
[ $? = 2 ] || fail "no debug info and no function scope: not an error"
grep -q "no KCSAN_SCOPE to fall back to" "$t/err" || fail "no fallback: $(cat "$t/err")"
# The line scope needs its vmlinux; a WARNING still fails with it.
expect_error 2 'KCSAN_LINES needs KCSAN_VMLINUX' -- env KCSAN_LINES="$t/lines" KCSAN_VMLINUX="$t/none" "$TOP/scripts/console-check.sh" "$t/base"
printf '[ 6.0] WARNING: at kernel/sched/core.c:1 set_task_cpu\n' >>"$t/base"
check "$t/base" && fail "a WARNING passed with the line scope"
exit 0
