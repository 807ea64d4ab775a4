#!/usr/bin/env bash
# check: quick, budget 60 s
# scripts/kcsan-titles.sh, the KCSAN base reference's table: for each report
# title of a series console and a base console (offsets dropped, the two
# kernels' differ), its count on each and whether it is the series' by
# console-check.sh's line scope (a stand-in faddr2line): a base race in a
# function the series touched is "no" and counted on both sides; the race
# at a series line is "yes"; a title only the base prints has 0 on the
# series. Without -b the base column is "-"; without a scope, ours is "?".
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
export FADDR2LINE=$TOP/tests/harness/fixtures/faddr2line FAKE_MAP=$t/map FAKE_LOG=$t/calls
: >"$t/vmlinux"
printf 'kernel/sched/fair.c:7001\n' >"$t/lines"
tab=$'\t'
{
	echo "sis_scan_account+0x10/0x20${tab}sis_scan_account at kernel/sched/fair.c:7001"
	echo "sched_balance_find_dst_group+0x23e/0x8bf${tab}sched_balance_find_dst_group at kernel/sched/fair.c:10600"
	echo "sched_balance_find_dst_group+0x250/0x8c3${tab}sched_balance_find_dst_group at kernel/sched/fair.c:10600"
	echo "enqueue_task_fair+0x99/0x900${tab}enqueue_task_fair at kernel/sched/fair.c:7000"
	echo "update_cfs_rq_load_avg+0x4d/0x200${tab}update_cfs_rq_load_avg at kernel/sched/fair.c:4600"
} >"$t/map"
kcsan_report() { # TITLE SITE1 SITE2
	printf '[    5.000000] ==================================================================\n[    5.000000] BUG: KCSAN: data-race in %s\n[    5.000000] \n' "$1"
	printf '[    5.000000] write to 0xffff88800f42d0a8 of 8 bytes by task 12 on cpu 3:\n[    5.000000]  %s\n[    5.000000]  kernel_clone+0x11a/0x4d0\n[    5.000000] \n' "$3"
	printf '[    5.000000] read to 0xffff88800f42d0a8 of 8 bytes by task 13 on cpu 1:\n[    5.000000]  %s\n[    5.000000]  sched_balance_rq+0x3a1/0xd80\n[    5.000000] \n' "$2"
	printf '[    5.000000] Reported by Kernel Concurrency Sanitizer on:\n[    5.000000] ==================================================================\n'
}
# The base: a race in sched_balance_find_dst_group twice (one title with its
# offset), one in sched_clock_cpu. The series: the same two of
# sched_balance_find_dst_group (other offsets: another build) and its own.
{
	kcsan_report 'enqueue_task_fair / sched_balance_find_dst_group' 'sched_balance_find_dst_group+0x250/0x8c3' 'enqueue_task_fair+0x99/0x900'
	kcsan_report 'enqueue_task_fair / sched_balance_find_dst_group' 'sched_balance_find_dst_group+0x250/0x8c3' 'enqueue_task_fair+0x99/0x900'
	kcsan_report 'sched_balance_find_dst_group+0x250/0x8c3' 'sched_balance_find_dst_group+0x250/0x8c3' 'sched_balance_find_dst_group+0x250/0x8c3'
	kcsan_report 'sched_clock_cpu / sched_clock_cpu' 'sched_clock_cpu+0x63/0x279' 'sched_clock_cpu+0x63/0x279'
} >"$t/base.log"
{
	kcsan_report 'enqueue_task_fair / sched_balance_find_dst_group' 'sched_balance_find_dst_group+0x23e/0x8bf' 'enqueue_task_fair+0x99/0x900'
	kcsan_report 'sched_balance_find_dst_group+0x23e/0x8bf' 'sched_balance_find_dst_group+0x23e/0x8bf' 'sched_balance_find_dst_group+0x23e/0x8bf'
	kcsan_report 'sis_scan_account / update_cfs_rq_load_avg' 'update_cfs_rq_load_avg+0x4d/0x200' 'sis_scan_account+0x10/0x20'
	kcsan_report 'sis_scan_account / update_cfs_rq_load_avg' 'update_cfs_rq_load_avg+0x4d/0x200' 'sis_scan_account+0x10/0x20'
} | sed 's/$/\r/' >"$t/series.log"
out=$(KCSAN_LINES=$t/lines KCSAN_VMLINUX=$t/vmlinux "$TOP/scripts/kcsan-titles.sh" -b "$t/base.log" "$t/series.log" 2>"$t/err") ||
	fail "kcsan-titles.sh failed: $(cat "$t/err")"
want="#   base series ours title
       0      2 yes  BUG: KCSAN: data-race in sis_scan_account / update_cfs_rq_load_avg
       2      1 no   BUG: KCSAN: data-race in enqueue_task_fair / sched_balance_find_dst_group
       1      1 no   BUG: KCSAN: data-race in sched_balance_find_dst_group
       1      0 no   BUG: KCSAN: data-race in sched_clock_cpu / sched_clock_cpu"
[ "$(echo "$out" | sed 1,2d)" = "$want" ] || fail "kcsan-titles.sh printed:
$out"
echo "$out" | sed -n 2p | grep -q 'by its lines scope' || fail "the scope is not named: $out"
grep -q "KCSAN scope: the series' lines" "$t/err" || fail "console-check's scope note is not passed on: $(cat "$t/err")"
# Without the base and without a scope.
out=$("$TOP/scripts/kcsan-titles.sh" "$t/series.log") || fail "kcsan-titles.sh without -b failed"
echo "$out" | grep -qxF '       -      2 ?    BUG: KCSAN: data-race in sis_scan_account / update_cfs_rq_load_avg' ||
	fail "without -b and a scope: $out"
expect_error 1 'no such file' -- "$TOP/scripts/kcsan-titles.sh" -b "$t/none" "$t/series.log"
exit 0
