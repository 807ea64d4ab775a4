#!/usr/bin/env bash
# check: quick, budget 60 s
# make replot (bench/replot.sh) draws a record's plots again from its
# SET.raw and SET.meta: on a copy of a committed record it writes SET.png
# for every set and leaves the record's text (CSV, results.json) as
# committed; it refuses a directory with no sets and a missing one. Git keeps
# no PNG under docs/results/ and ignores those a replot draws there.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
R=$TOP/bench/replot.sh
rec=$TOP/docs/results/2026-12-06-make-g8-zen3
[ -f "$rec/ab.raw" ] && [ -f "$rec/ab.meta" ] || fail "$rec lacks ab.raw and ab.meta, the sets this test replots"
cp -r "$rec" "$t/r"
rm -f "$t/r"/*.png
STATS=$BUILD/bin/stats "$R" "$t/r" >"$t/out" 2>&1 || fail "replot.sh failed: $(cat "$t/out")"
grep -qx "$t/r/ab.png" "$t/out" || fail "replot.sh did not name ab.png: $(cat "$t/out")"
file "$t/r/ab.png" | grep -q 'PNG image data' || fail "not a PNG: $(file "$t/r/ab.png")"
for f in ab.csv results.json report.txt; do
	cmp -s "$rec/$f" "$t/r/$f" || fail "replot.sh changed the record's $f"
done
echo "# $(basename "$rec"): $(grep -c . "$t/out") plot(s) drawn, text unchanged"
mkdir "$t/none"
echo "nothing" >"$t/none/README.md"
expect_error 1 "holds no SET.meta with its SET.raw" -- "$R" "$t/none"
expect_error 2 "give RECORD=docs/results/NAME" -- "$R" "$t/missing"
# git ignores the plots a replot draws into the committed records.
git -C "$TOP" check-ignore -q docs/results/2026-12-06-make-g8-zen3/ab.png ||
	fail "docs/results/**/*.png is not ignored by git"
tracked=$(git -C "$TOP" ls-files 'docs/results/*.png' 'docs/results/**/*.png')
[ -z "$tracked" ] || fail "PNGs committed under docs/results (make replot draws them): $tracked"
