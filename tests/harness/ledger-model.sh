#!/usr/bin/env bash
# check: quick, budget 60 s
# The cache ledger's model (ledger/model.c) on known answers, on the host:
# ledger/test-model.c's cases (a set re-read on its own core, its SMT
# sibling, another core of the LLC, another LLC, the other socket, read-only
# and written; writer/reader pairs at each distance; sets bigger than L3;
# and the exact access sequences of ledger/known.c's share and triad modes,
# whose counts ledger/known-check.sh expects in a guest), each exact or
# within its stated bound. Then bad cache files: each refused
# with one line that names the file, the line and the fix.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
C=$TOP/ledger/zen3.conf
gcc -O2 -Wall -Wextra -Werror -o "$t/test-model" "$TOP/ledger/test-model.c" "$TOP/ledger/model.c" ||
	fail "ledger/test-model.c does not build"
out=$("$t/test-model" "$C") || fail "known answers wrong:
$(echo "$out" | grep -A1 '^not ok')"
echo "# $(echo "$out" | tail -n1)"
[ "$(echo "$out" | grep -c '^ok - ')" -ge 31 ] || fail "fewer cases than expected ran: $out"

# bad FILE PATTERN: the cache file FILE is refused with a message matching PATTERN.
bad() {
	expect_error 1 "$2" -- "$t/test-model" --conf "$1"
}
bad "$t/none.conf" 'cannot read the cache file .*none.conf.*give cache=PATH'
grep -v '^lat_l3 ' "$C" >"$t/missing.conf"
bad "$t/missing.conf" 'missing.conf: lat_l3 is missing; add a line'
sed 's/^l2_ways 8 /l2_ways eight /' "$C" >"$t/word.conf"
bad "$t/word.conf" 'word.conf:[0-9]+: l2_ways .eight.: want a whole number of ways'
sed 's/^lat_l2 12c /lat_l2 12 /' "$C" >"$t/unit.conf"
bad "$t/unit.conf" 'unit.conf:[0-9]+: lat_l2 .12.: want a positive latency with its unit'
sed 's/^lat_c2c_node \([^ ]*\) #.*/lat_c2c_node \1/' "$C" >"$t/nosrc.conf"
bad "$t/nosrc.conf" 'nosrc.conf:[0-9]+: lat_c2c_node has no source'
{ cat "$C"; echo 'l1_bytes 64K # again'; } >"$t/twice.conf"
bad "$t/twice.conf" 'twice.conf:[0-9]+: l1_bytes given twice'
{ cat "$C"; echo 'l4_bytes 1M # an L4'; } >"$t/key.conf"
bad "$t/key.conf" "key.conf:[0-9]+: unknown key 'l4_bytes'"
sed 's/^l3_bytes 32M /l3_bytes 24M /' "$C" >"$t/sets.conf"
bad "$t/sets.conf" 'sets.conf: l3_bytes .* not a power-of-two number of sets'
# line addresses are shifts (ledger.c's line_shift), set indexes masks
sed 's/^line_bytes 64 /line_bytes 48 /' "$C" >"$t/line.conf"
bad "$t/line.conf" 'line.conf: line_bytes 48: want a power of two'
"$t/test-model" --conf "$C" || fail "ledger/zen3.conf itself refused"
