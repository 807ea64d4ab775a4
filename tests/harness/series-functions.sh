#!/usr/bin/env bash
# check: quick, budget 60 s
# scripts/series-functions.sh (the KCSAN kernel's report scope) lists the
# functions the series adds and changes, and nothing that is not a name.
. "$(dirname "$0")/../lib.sh"
list=$("$TOP/scripts/series-functions.sh") || fail "series-functions.sh failed"
# Added by the series (0005-0010), changed by it (0001, 0002, 0004, 0006-0010),
# and of the KUnit overlay.
for f in sis_idle_scan_depth sis_scan_account sched_sis_scan_write sis_has_room select_room_cpu \
	select_idle_near sis_room_order sched_sis_wake_show sched_counters_write task_numa_imb_nr select_idle_cpu select_idle_sibling sched_feat_set \
	sched_balance_find_dst_group cpu_util sis_has_room_test sis_room_order_test; do
	echo "$list" | grep -qx "$f" || fail "series-functions.sh misses $f"
done
bad=$(echo "$list" | grep -vxE '[a-z_][a-z0-9_]*' || true)
[ -z "$bad" ] || fail "series-functions.sh lists what is not a function name: $bad"
for f in if for while return sizeof SCHED_FEAT update_sg_lb_stats mas_prev_slot; do
	echo "$list" | grep -qx "$f" && fail "series-functions.sh lists $f"
done
echo "# $(echo "$list" | wc -l) functions"
exit 0
