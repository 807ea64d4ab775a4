# Where the workload's tasks went, from a trace and the machine's topology.
#   awk -v side=A -f where.awk TOPOLOGY TRACE
# TOPOLOGY is bench/topology.sh's output (nodeN, llc and smt lines with
# cpulists); TRACE the text of tracefs' trace with the sched_migrate_task,
# sched_waking and sched_wakeup events of a run, kernel threads' left
# out here. Prints
# "SIDE METRIC VALUE" lines for bench/stats:
#   mig_smt, mig_llc, mig_node, mig_remote  migrations to an SMT sibling,
#       to another core of the LLC, to another LLC of the node, to another
#       node (a CPU the topology does not place counts as remote);
#   wake_stay_pct  of the wakeups, the share that ran where the task last
#       ran (sched_waking's target_cpu, its CPU then, against
#       sched_wakeup's, the CPU chosen).
function expand(list, kind, id,    n, parts, i, r, a, b, c) {
	n = split(list, parts, ",")
	for (i = 1; i <= n; i++) {
		if (split(parts[i], r, "-") == 2) { a = r[1]; b = r[2] } else { a = b = parts[i] }
		for (c = a + 0; c <= b + 0; c++)
			where[kind, c] = id
	}
}
function same(kind, x, y) {
	return ((kind, x) in where) && ((kind, y) in where) && where[kind, x] == where[kind, y]
}
function field(name,    m) {
	if (!match($0, " " name "=[0-9]+"))
		return -1
	return substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) + 0
}
FNR == NR {
	if ($1 ~ /^node[0-9]+$/) expand($2, "node", $1)
	else if ($1 == "llc") expand($2, "llc", ++nllc)
	else if ($1 == "smt") expand($2, "smt", ++nsmt)
	next
}
# Kernel threads are not the workload.
/ comm=(kworker|ksoftirqd|migration|rcu_|cpuhp|watchdog|kthreadd|kcompactd|khugepaged)/ { next }
/ sched_migrate_task: / {
	o = field("orig_cpu"); d = field("dest_cpu")
	if (same("smt", o, d)) smt++
	else if (same("llc", o, d)) llc++
	else if (same("node", o, d)) node++
	else remote++
	next
}
/ sched_waking: / { p = field("pid"); if (p >= 0) last[p] = field("target_cpu"); next }
/ sched_wakeup: / {
	p = field("pid")
	if (!(p in last))
		next
	woken++
	if (field("target_cpu") == last[p])
		stayed++
	delete last[p]
}
END {
	print side, "mig_smt", smt + 0
	print side, "mig_llc", llc + 0
	print side, "mig_node", node + 0
	print side, "mig_remote", remote + 0
	if (woken)
		printf "%s wake_stay_pct %.2f\n", side, 100 * stayed / woken
}
