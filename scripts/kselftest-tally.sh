#!/usr/bin/env bash
# The per-test table of a kselftest-repeat.sh summary: runs, ok, not ok,
# skipped, and the seconds each run took (min/median/max), one row per test
# in the order they ran; then a line with the totals. A run is ok when the
# runner said ok and exited 0, skipped when it said "ok # SKIP" or printed
# no verdict at all (a skip of the whole runner: "1..0 # SKIP", no root,
# no debugfs, no L3) and exited 4 (KSFT_SKIP); anything else is not ok: a
# "not ok", a verdict without its exit status (an ok, then a crash), no
# verdict with any other status. Exit status 1 when any run is not ok, 2
# when the summary holds no run.
#   kselftest-tally.sh SUMMARY
set -euo pipefail
[ $# = 1 ] && [ -f "$1" ] || { echo "usage: kselftest-tally.sh SUMMARY" >&2; exit 2; }
awk '
/^run [0-9]+ / {
	t = $3
	v = $0; sub(/.*verdict=\[/, "", v); sub(/\].*/, "", v)
	s = $0; sub(/.*secs=/, "", s); sub(/ .*/, "", s)
	rc = $0; sub(/.*rc=/, "", rc); sub(/ .*/, "", rc)
	if (!(t in n)) name[++k] = t
	n[t]++; secs[t, n[t]] = s + 0
	if (v == "ok" && rc == "0") ok[t]++
	else if ((v ~ /# SKIP$/ || v == "none") && rc == "4") sk[t]++
	else bad[t]++
}
END {
	if (k == 0) { print "error: no run in the summary" > "/dev/stderr"; exit 2 }
	printf "%-20s %5s %5s %7s %5s  %s\n", "test", "runs", "ok", "not ok", "skip", "secs min/median/max"
	for (i = 1; i <= k; i++) {
		t = name[i]; m = n[t]
		for (a = 1; a <= m; a++) x[a] = secs[t, a]
		for (a = 2; a <= m; a++) for (b = a; b > 1 && x[b] < x[b - 1]; b--) { y = x[b]; x[b] = x[b - 1]; x[b - 1] = y }
		med = m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
		printf "%-20s %5d %5d %7d %5d  %d/%g/%d\n", t, m, ok[t], bad[t], sk[t], x[1], med, x[m]
		R += m; O += ok[t]; B += bad[t]; S += sk[t]
	}
	printf "# %d runs of %d tests: %d ok, %d not ok, %d skipped\n", R, k, O, B, S
	exit B > 0
}' "$1"
