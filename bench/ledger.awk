# ledger.awk LEDGER.TXT MAP: the cache ledger's rows of an A/B's runs.
# LEDGER.TXT holds the plugin's window lines (ledger/README.md: key=value
# fields, "label" among them); MAP the label and side of each measured run
# (bench/ab-run.sh), in run order. Prints, per run, "SIDE METRIC VALUE" for
# the whole machine's totals, as ab-run.sh prints its own metrics. A run
# whose label has no window is an error: a ledger that lost a window
# would otherwise drop a run from one side silently.
BEGIN {
	nm = split("insns l2_miss l3_miss c2c_llc c2c_node c2c_remote dram_local dram_remote stall_ms", metric, " ")
}
FNR == NR {
	delete f
	for (i = 1; i <= NF; i++) {
		k = $i
		sub(/=.*/, "", k)
		v = $i
		sub(/^[^=]*=/, "", v)
		f[k] = v
	}
	if (!("label" in f))
		next
	for (j = 1; j <= nm; j++)
		row[f["label"], metric[j]] = f[metric[j]]
	seen[f["label"]] = 1
	next
}
NF == 2 {
	if (!($1 in seen)) {
		printf "error: ledger: run %s (side %s) has no window in %s\n", $1, $2, ARGV[1] > "/dev/stderr"
		bad = 1
		next
	}
	for (j = 1; j <= nm; j++)
		print $2, metric[j], row[$1, metric[j]]
}
END { exit bad }
