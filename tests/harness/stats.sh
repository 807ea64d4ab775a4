#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/stats: means, CV, change sign, Welch p-values (checked against an
# independent numerical integration of Student's t density: 0.000255 for
# t = 12.25, df = 4; 0.0691 for t = 2.251, df = 5.52), the normalized rows,
# the CSV, and rejection of bad input.
. "$(dirname "$0")/../lib.sh"
S=$BUILD/bin/stats
[ -x "$S" ] || fail "no $S; run 'make tools'"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
out=$(printf 'A time_s 1.0\nB time_s 2.0\nA time_s 1.1\nB time_s 2.1\nA time_s 0.9\nB time_s 1.9\nA m 10\nB m 11\nA m 12\nB m 10\nA m 11\nB m 12\n' |
	"$S" -r 4-groups -c "$t/csv")
echo "$out" | sed 's/^/# /'
echo "$out" | grep -qE '^Amean time_s +2\.0000 \(  5\.00%\) +1\.0000 \( 10\.00%\) +50\.00% +0\.0003 \*$' || fail "time_s row wrong"
echo "$out" | grep -qE '^Amean m +11\.0000 .* +11\.0000 .* +0\.00% +1\.0000 $' || fail "m row wrong (no change, p 1, not significant)"
echo "$out" | grep -qE '^  4-groups time_s +1\.00 \[  0\.00\]\(  5\.00\)   +0\.50 \[ 50\.00\]\( 10\.00\)$' || fail "normalized time_s row wrong"
grep -qx 'time_s,A,3,1,10.00,50.00,0.000255,1' "$t/csv" || fail "CSV row wrong: $(cat "$t/csv")"
# A side whose mean is 0 (no sample past cyclictest's histogram, say) has no
# ratio: its normalized row says so instead of printing 0.00.
out=$(printf 'A over 1\nB over 0\nA over 1\nB over 0\n' | "$S" -m 2)
echo "$out" | grep -qE '^  over +- \[     -\]\(  0\.00\) +- \[     -\]\(  0\.00\)$' || fail "zero-mean normalized row wrong: $out"
# Unequal sizes and variances: Welch's df is 5.52, p 0.0691: not significant.
out=$(printf 'A x 1\nA x 2\nA x 3\nA x 4\nB x 2\nB x 4\nB x 6\nB x 8\nB x 10\n' | "$S")
echo "$out" | grep -qE '^Amean x .* 58\.33% +0\.0691 $' || fail "Welch row wrong: $out"
# One run a side (-m 1): no p-value, no star, no abort; the same with no spread.
out=$(printf 'A x 1\nB x 2\nB x 3\n' | "$S" -m 1) || fail "stats failed on one run of A: $out"
echo "$out" | grep -qE '^Amean x .* +- $' || fail "one run of A: want p '-': $out"
out=$(printf 'A x 1\nA x 1\nB x 2\nB x 2\n' | "$S") || fail "stats failed on no spread: $out"
echo "$out" | grep -qE '^Amean x .* +- $' || fail "no spread, different means: want p '-': $out"
# -H: a higher-is-better metric that rose is a gain; a "~" metric has no
# direction: its change is "-" in the table, the normalized row and the CSV.
out=$(printf 'A rps 3\nB rps 2\nA rps 3.2\nB rps 2.2\nA share 10\nB share 5\nA share 11\nB share 6\n' |
	"$S" -H rps,~share -c "$t/neutral.csv")
echo "$out" | grep -qE '^Amean rps .* +47\.62% ' || fail "higher-is-better row wrong: $out"
echo "$out" | grep -qE '^Amean share .* +- +0\.0194 \*$' || fail "neutral row wrong: $out"
echo "$out" | grep -qE '^  share +1\.00 \[ +-\]\( 12\.86\) +1\.91 \[ +-\]' || fail "neutral normalized row wrong: $out"
grep -qx 'share,A,2,10.5,6.73,,0.019419,1' "$t/neutral.csv" || fail "neutral CSV row wrong: $(cat "$t/neutral.csv")"
# A metric that is 0 in every run of both sides (a decision no run took)
# gets no row, only a mention; "~wake_*" makes every wake_ metric neutral,
# and no other.
out=$(printf 'A wake_fit 4\nB wake_fit 0\nA wake_fit 6\nB wake_fit 0\nA wake_no 0\nB wake_no 0\nA wake_no 0\nB wake_no 0\nA wakes 2\nB wakes 1\nA wakes 2\nB wakes 1\n' |
	"$S" -H '~wake_*')
echo "$out" | grep -qE '^Amean wake_fit .* +- +0\.[0-9]+ ' || fail "wake_fit not neutral: $out"
echo "$out" | grep -qE '^Amean wakes .* -100\.00% ' || fail "wakes taken for a wake_ metric: $out"
echo "$out" | grep -q 'wake_no ' && fail "an all-zero metric has a row: $out"
echo "$out" | grep -qx '(0 in every run of both, not shown: wake_no)' || fail "no mention of the all-zero metric: $out"
expect_error 1 "not 'A\|B METRIC VALUE'" -- sh -c "echo garbage | $S"
expect_error 1 "need 2 per side" -- sh -c "echo 'A x 1' | $S"
