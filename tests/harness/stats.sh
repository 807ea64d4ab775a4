#!/usr/bin/env bash
# bench/stats: means, CV, change sign, significance, and rejection of bad input.
. "$(dirname "$0")/../lib.sh"
S=$BUILD/bin/stats
[ -x "$S" ] || fail "no $S; run 'make tools'"
out=$(printf 'A time_s 1.0\nB time_s 2.0\nA time_s 1.1\nB time_s 2.1\nA time_s 0.9\nB time_s 1.9\nA m 10\nB m 11\nA m 12\nB m 10\nA m 11\nB m 12\n' | "$S")
echo "$out" | sed 's/^/# /'
echo "$out" | grep -qE '^Amean time_s +2\.0000 \(  5\.00%\) +1\.0000 \( 10\.00%\) +50\.00% \*$' || fail "time_s row wrong"
echo "$out" | grep -qE '^Amean m +11\.0000 .* +11\.0000 .* +0\.00% $' || fail "m row wrong (no change, not significant)"
expect_error 1 "not 'A\|B METRIC VALUE'" -- sh -c "echo garbage | $S"
expect_error 1 "need 2 per side" -- sh -c "echo 'A x 1' | $S"
