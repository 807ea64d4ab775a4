#!/usr/bin/env bash
# check: quick, budget 60 s
# host_mark / host_others_pct (tests/lib.sh), the idle-host check of the
# vm-alone stage: CPU time of the caller's own foreground children counts as
# its own, CPU time of a process outside its tree does not, and the share
# is other busy ticks, steal left out, over all ticks. Asserts on tick
# counts, not on shares, and against the CPU time the busy loops themselves
# measured, not the wall clock, so that neither the host's load nor its CPU
# count changes the answer.
. "$(dirname "$0")/../lib.sh"
hz=$(getconf CLK_TCK)
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
# spin TICKS: a busy loop (user and system time: it reads its own stat)
# until it has had TICKS of CPU, however long that takes on a loaded host;
# prints the ticks it had, its utime + stime (fields 14 and 15).
spin() {
	bash -c 'while read -r s </proc/$BASHPID/stat; s=(${s##*") "}); [ $((s[11] + s[12])) -lt "$1" ]; do :; done
		echo $((s[11] + s[12]))' spin "$1"
}
field() { echo "$1" | awk -v f="$2" '{ print $f }'; } # MARK N: busy 1, all 2, kids 3, steal 4

m0=$(host_mark)
own=$(spin "$hz")
m1=$(host_mark)
[ "$own" -ge "$hz" ] || fail "our own busy loop stopped at $own ticks of CPU, short of $hz"
kids=$(($(field "$m1" 3) - $(field "$m0" 3)))
echo "# a busy loop of our own that had $own ticks of CPU: $kids ticks of our children (CLK_TCK $hz)"
# Both floor utime and stime apart (each under 2 ticks low); kids adds under 1 tick of other work (first mark, loop's exit).
[ "$kids" -ge $((own - 1)) ] && [ "$kids" -le $((own + 4)) ] ||
	fail "our own busy loop had $own ticks of CPU, our children's ticks grew by $kids"

# An orphan (its parent exits at once) is outside our tree.
m0=$(host_mark)
(spin "$hz" >"$t/orphan" &)
wait_until 60 - test -s "$t/orphan" || fail "the outside busy loop did not finish in 60 s"
m1=$(host_mark)
own=$(cat "$t/orphan")
[ "$own" -ge "$hz" ] || fail "the outside busy loop stopped at $own ticks of CPU, short of $hz"
kids=$(($(field "$m1" 3) - $(field "$m0" 3)))
busy=$(($(field "$m1" 1) - $(field "$m0" 1)))
echo "# a busy loop outside our tree that had $own ticks of CPU: $kids ticks of our children, $busy busy ticks on the host"
[ "$kids" -lt $((own / 2)) ] || fail "an outside busy loop counted as ours: $kids ticks"
# /proc/stat floors its 6 busy fields to ticks, the loop its 2, and the kernel's tick sampling misses under 1 more.
[ "$busy" -ge $((own - 8)) ] || fail "an outside busy loop that had $own ticks of CPU did not show as busy: $busy ticks"

# The steal ticks are /proc/stat's eighth field (read first: it only
# grows), and no more than the busy ticks, which include them.
s=$(awk '$1 == "cpu" { print $9 }' /proc/stat)
m0=$(host_mark)
[ "$(field "$m0" 4)" -ge "$s" ] 2>/dev/null || fail "steal ticks $(field "$m0" 4) behind /proc/stat's $s"
[ "$(field "$m0" 4)" -le "$(field "$m0" 1)" ] || fail "steal ticks above busy ticks: $m0"

# The shares: (busy - steal - ours) / all, never below 0; steal / all.
for c in "100 1000 50 10|400 1600 250 70|6.7|10.0" "0 0 0 0|100 200 150 0|0.0|0.0" "5 5 5 5|5 5 5 5|0.0|0.0" \
	"0 0 0 0|300 600 100 200|0.0|33.3" "0 0 0 0|300 600 100 0|33.3|0.0"; do
	IFS='|' read -r a b want want_steal <<<"$c"
	got=$(host_others_pct "$a" "$b")
	[ "$got" = "$want" ] || fail "host_others_pct '$a' '$b': $got, want $want"
	got=$(host_steal_pct "$a" "$b")
	[ "$got" = "$want_steal" ] || fail "host_steal_pct '$a' '$b': $got, want $want_steal"
done
echo "# host_others_pct: (busy - steal - ours) / all ticks, 0 when negative or no ticks; host_steal_pct: steal / all"
