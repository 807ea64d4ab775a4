#!/usr/bin/env bash
# host_mark / host_others_pct (scripts/lib.sh), the idle-host check of the
# vm-alone stage: CPU time of the caller's own foreground children counts as
# its own, CPU time of a process outside its tree does not, and the share
# is other busy ticks over all ticks. Asserts on tick counts, not on shares,
# so that neither the host's load nor its CPU count changes the answer.
. "$(dirname "$0")/../lib.sh"
hz=$(getconf CLK_TCK)
spin() { timeout "$1" sh -c 'while :; do :; done'; }
field() { echo "$1" | awk -v f="$2" '{ print $f }'; } # MARK N: busy 1, all 2, kids 3

m0=$(host_mark)
spin 3
m1=$(host_mark)
kids=$(($(field "$m1" 3) - $(field "$m0" 3)))
echo "# a 3 s busy loop of our own: $kids ticks of our children (CLK_TCK $hz)"
[ "$kids" -ge $((2 * hz)) ] || fail "our own busy loop is not in our children's ticks: $kids"

# An orphan (its parent exits at once) is outside our tree.
m0=$(host_mark)
(spin 3 &)
sleep 3.5
m1=$(host_mark)
kids=$(($(field "$m1" 3) - $(field "$m0" 3)))
busy=$(($(field "$m1" 1) - $(field "$m0" 1)))
echo "# a 3 s busy loop outside our tree: $kids ticks of our children, $busy busy ticks on the host"
[ "$kids" -lt $((hz / 2)) ] || fail "an outside busy loop counted as ours: $kids ticks"
[ "$busy" -ge $((2 * hz)) ] || fail "an outside busy loop did not show as busy: $busy ticks"

# The share: (busy - ours) / all, never below 0.
for c in "100 1000 50|400 1600 250|16.7" "0 0 0|100 200 150|0.0" "5 5 5|5 5 5|0.0"; do
	IFS='|' read -r a b want <<<"$c"
	got=$(host_others_pct "$a" "$b")
	[ "$got" = "$want" ] || fail "host_others_pct '$a' '$b': $got, want $want"
done
echo "# host_others_pct: (busy - ours) / all ticks, 0 when negative or no ticks"
