#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/where.awk splits a run's migrations by distance and counts the
# wakeups that stayed, on a known topology and trace: an SMT sibling, the
# LLC, the node, another node (and a CPU the topology does not place); a
# kernel thread's migration is left out; a wakeup without its waking event
# is not counted.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
cat >"$t/topology" <<'TOPO'
cpus 8
vendor AuthenticAMD family 25
node0 0-3
node1 4-7
llc 0-1
llc 2-3
llc 4-7
smt 0,4
smt 1,5
smt 2
smt 3
smt 6
smt 7
domains SMT MC NUMA
TOPO
ev() { # CPU EVENT FIELDS
	printf '       hackbench-123     [%03d] d..2.   100.000001: %s: %s\n' "$1" "$2" "$3"
}
{
	echo '# tracer: nop'
	ev 0 sched_waking 'comm=hackbench pid=124 prio=120 target_cpu=001'
	ev 0 sched_migrate_task 'comm=hackbench pid=124 prio=120 orig_cpu=1 dest_cpu=0'
	ev 0 sched_wakeup 'comm=hackbench pid=124 prio=120 target_cpu=000'
	ev 0 sched_waking 'comm=hackbench pid=125 prio=120 target_cpu=002'
	ev 0 sched_wakeup 'comm=hackbench pid=125 prio=120 target_cpu=002'
	ev 2 sched_wakeup 'comm=hackbench pid=126 prio=120 target_cpu=002'
	ev 4 sched_migrate_task 'comm=hackbench pid=126 prio=120 orig_cpu=0 dest_cpu=4'
	ev 4 sched_migrate_task 'comm=hackbench pid=126 prio=120 orig_cpu=0 dest_cpu=2'
	ev 4 sched_migrate_task 'comm=hackbench pid=126 prio=120 orig_cpu=4 dest_cpu=6'
	ev 4 sched_migrate_task 'comm=hackbench pid=126 prio=120 orig_cpu=5 dest_cpu=2'
	ev 4 sched_migrate_task 'comm=hackbench pid=126 prio=120 orig_cpu=3 dest_cpu=9'
	ev 4 sched_migrate_task 'comm=kworker/1:0 pid=12 prio=120 orig_cpu=0 dest_cpu=7'
} >"$t/trace"
out=$(awk -v side=B -f "$TOP/bench/where.awk" "$t/topology" "$t/trace")
printf '%s\n' "B mig_smt 1" "B mig_llc 2" "B mig_node 1" "B mig_remote 2" "B wake_stay_pct 50.00" >"$t/want"
diff "$t/want" <(echo "$out") >&2 || fail "where.awk: $out"
# No events: every count 0, no share of wakeups.
out=$(awk -v side=A -f "$TOP/bench/where.awk" "$t/topology" /dev/null)
[ "$out" = "$(printf '%s\n' "A mig_smt 0" "A mig_llc 0" "A mig_node 0" "A mig_remote 0")" ] || fail "where.awk on no trace: $out"
echo "# where.awk: the split and the stayed wakeups of a known trace"
