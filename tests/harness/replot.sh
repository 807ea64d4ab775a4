#!/usr/bin/env bash
# check: quick, budget 60 s
# make replot (bench/replot.sh) draws a record's plots again from its
# SET.raw and SET.meta: on a copy of a committed record it writes SET.png
# for every set and leaves the record's text (CSV, results.json) as
# committed; it refuses a directory with no sets and a missing one. A
# record with no report.txt takes its plots' title from the end of its name
# when that is a preset (read by lib.sh's preset_get), else none. Git keeps
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
# Without report.txt: the name's end, a preset (zen2) or not (ab), is the
# title's prefix or nothing, as gnuplot is told (a stand-in that keeps its
# script, then runs gnuplot).
printf '#!/bin/sh\ncat "$1" >>"%s/gp.$SP_NAME"\nexec gnuplot "$1"\n' "$t" >"$t/gnuplot"
chmod +x "$t/gnuplot"
for n in zen2 ab; do
	mkdir "$t/x-$n"
	cp "$rec/ab.raw" "$rec/ab.meta" "$t/x-$n/"
	SP_NAME=$n GNUPLOT=$t/gnuplot STATS=$BUILD/bin/stats "$R" "$t/x-$n" >"$t/out" 2>&1 || fail "replot.sh x-$n failed: $(cat "$t/out")"
done
want="title '$(sed -n 's/^title=//p' "$rec/ab.meta")'"
grep -qF "title 'zen2: " "$t/gp.zen2" || fail "x-zen2: no title 'zen2: ...': $(grep 'multiplot.*title' "$t/gp.zen2")"
grep -qF "$want" "$t/gp.ab" || fail "x-ab: want the bare $want: $(grep 'multiplot.*title' "$t/gp.ab")"
echo "# no report.txt: $(grep -o "title 'zen2: [^']*'" "$t/gp.zen2" | head -n1)"
mkdir "$t/none"
echo "nothing" >"$t/none/README.md"
expect_error 1 "holds no SET.meta with its SET.raw" -- "$R" "$t/none"
expect_error 2 "give RECORD=docs/results/NAME" -- "$R" "$t/missing"
# git ignores the plots a replot draws into the committed records.
git -C "$TOP" check-ignore -q docs/results/2026-12-06-make-g8-zen3/ab.png ||
	fail "docs/results/**/*.png is not ignored by git"
tracked=$(git -C "$TOP" ls-files 'docs/results/*.png' 'docs/results/**/*.png')
[ -z "$tracked" ] || fail "PNGs committed under docs/results (make replot draws them): $tracked"
