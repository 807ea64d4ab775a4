#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/plot.sh draws one panel per metric of an A/B raw file into a PNG, and
# rejects a file with nothing to plot and a missing gnuplot.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
P=$TOP/bench/plot.sh
printf 'A time_s 1.0\nB time_s 2.0\nA time_s 1.1\nB time_s 2.1\nA migrations 10\nB migrations 11\nA migrations 12\nB migrations 12\n' >"$t/raw"
"$P" "$t/raw" "$t/one.png" "it's a test" "A's side" B || fail "plot.sh failed"
file "$t/one.png" | grep -q 'PNG image data, 900 x' || fail "not a PNG: $(file "$t/one.png")"
h1=$(file "$t/one.png" | sed -n 's/.* x \([0-9]*\),.*/\1/p')
# Two metrics give two panels; three give a taller image.
printf 'A ctxsw 5\nB ctxsw 6\n' >>"$t/raw"
"$P" "$t/raw" "$t/three.png" || fail "plot.sh failed on three metrics"
h3=$(file "$t/three.png" | sed -n 's/.* x \([0-9]*\),.*/\1/p')
[ "$h3" -gt "$h1" ] || fail "three metrics ($h3 px high) not taller than two ($h1 px)"
echo "# 2 metrics: 900x$h1, 3 metrics: 900x$h3"
echo "# nothing here" >"$t/empty"
expect_error 1 "has no 'A\|B METRIC VALUE' lines" -- "$P" "$t/empty" "$t/e.png"
[ ! -e "$t/e.png" ] || fail "a refused plot wrote a PNG"
GNUPLOT=/nonexistent/gnuplot expect_error 1 "gnuplot \(/nonexistent/gnuplot\) not found; run 'make deps'" -- "$P" "$t/raw" "$t/n.png"
