#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/report.sh, the one report writer of make, make bench and
# base-vs-series: on a known input of three sets of one family (both-g1,
# both-g4, both-g8), each set's section and table with the metric directions
# of its meta (-H: a higher-is-better metric that rose is a gain), its CSV
# and plot, results.json with one object per set, side and metric, and the
# family's sweep plot; a set whose table cannot be made is named and fails
# the report without stopping it; a set without its meta is refused by name.
. "$(dirname "$0")/../lib.sh"
R=$TOP/bench/report.sh
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"
. "$TOP/bench/lib.sh"
for g in 1 4 8; do
	for i in 1 2 3; do
		echo "A time_s $((g + i))"
		echo "B time_s $((2 * g + i))"
		echo "A tput_mbps $((10 * g + i))"
		echo "B tput_mbps $((5 * g + i))"
	done >"$t/both-g$g.raw"
	ab_meta "$t/both-g$g.meta" "test $g" ON OFF "" 3 cpus_utilised,tput_mbps "hackbench -g $g"
done
out=$("$R" -t zen3 "$t" both-g1 both-g4 both-g8) || fail "report.sh failed: $out"
echo "$out" | sed -n 1,5p | sed 's/^/# /'
[ "$(echo "$out" | grep -c '^== both-g')" = 3 ] || fail "want 3 sections: $out"
echo "$out" | grep -qxF '   A: ON, B: OFF; 3 interleaved runs per side' || fail "no sides line: $out"
# both-g4: time_s A 6, B 10: 40% better; tput_mbps A 42, B 22: +90.91%, higher is better.
echo "$out" | grep -A6 '^== both-g4' | grep -qE '^Amean time_s +10\.0000 .* +6\.0000 .* +40\.00% ' || fail "both-g4 time_s row: $out"
echo "$out" | grep -A6 '^== both-g4' | grep -qE '^Amean tput_mbps +22\.0000 .* +42\.0000 .* +90\.91% ' || fail "both-g4 tput_mbps row (higher is better): $out"
for f in both-g1.csv both-g4.png both-g8.csv results.json; do
	[ -s "$t/$f" ] || fail "no $f: $(ls "$t")"
done
file "$t/sweep-both-g.png" | grep -q 'PNG image data' || fail "no sweep plot: $(ls "$t")"
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 12, len(rows)
r = [x for x in rows if x["set"] == "both-g4" and x["metric"] == "tput_mbps" and x["side"] == "A"][0]
assert r["label"] == "ON" and r["runs"] == 3 and r["mean"] == 42 and r["change_pct"] == 90.91, r
b = [x for x in rows if x["set"] == "both-g4" and x["metric"] == "tput_mbps" and x["side"] == "B"][0]
assert b["p"] is None and b["label"] == "OFF", b
' "$t/results.json" || fail "results.json: $(cat "$t/results.json")"
echo "# results.json: 12 rows, e.g. $(grep -m1 '"both-g4".*"A".*tput_mbps' "$t/results.json")"
# A set whose table cannot be made (a metric with one run of three) is
# named and fails the report; the other sets, results.json and the sweep
# are written all the same, the JSON still valid.
printf 'A k 1\nB k 2\nA x 1\nB x 2\nA x 1\nB x 2\nA x 1\nB x 2\n' >"$t/aaa.raw"
ab_meta "$t/aaa.meta" "short" ON OFF "" 3 "" "true"
rm -f "$t/results.json" "$t/both-g4.csv"
rc=0
out=$("$R" "$t" aaa both-g4 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "a set without a table: exit $rc, want 1: $out"
echo "$out" | grep -q '^error: no table for aaa' || fail "the failed set is not named: $out"
echo "$out" | grep -q '^== both-g4' && [ -s "$t/both-g4.csv" ] || fail "the set after the failed one was not reported: $out"
[ ! -e "$t/aaa.csv" ] || fail "the failed set left a CSV"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$t/results.json" || fail "results.json invalid after a failed set: $(cat "$t/results.json")"
echo "# a set with too few runs: named, exit 1, the next set and results.json written"
rm "$t/both-g8.meta"
expect_error 1 "has no both-g8.meta and both-g8.raw" -- "$R" "$t" both-g8
