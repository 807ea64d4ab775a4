#!/usr/bin/env bash
# check: full, budget 400 s
# The cache ledger in a guest, against known answers (ledger/known.sh,
# ledger/known-check.sh): 2s4llc booted with LEDGER=1; a buffer written
# and moved, pass after pass, between CPU 0 and a CPU at each distance
# that the guest's own topology gives (SMT sibling, another core of the
# LLC, another LLC, the other socket) costs one L2 miss a line and move,
# served from that distance's class, and none for the SMT sibling; a
# stream that fits one L3 hits it, one that fits no cache goes to local
# memory; a writer on CPU 0 and a reader in the LLC, in another LLC and on
# the other socket sharing a buffer: the reader misses every line every
# round, from the writer's cache in that distance's class, and the writer
# no more than pinned; STREAM's triad in one L3 (from L3 on every pass)
# and in 4 x L3 (from local memory on every pass); each within 20%
# (known-check.sh's TOL and its reasons). This is also the check
# that the plugin's vCPU numbering matches the guest's CPU ids and LLCs:
# a mismatch sends a move to the wrong class. The runs behind it, and a
# wrong topology failing: docs/results/2026-12-07-ledger-known-nodes-2s4llc
# (all cases) and docs/results/2026-12-07-ledger-known-2s4llc (the moves,
# the streams and the wrong topology).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
make -s -C "$TOP" ledger >"$t/make.out" 2>&1 || fail "make ledger failed: $(tail -n 5 "$t/make.out")"
mkdir "$t/out" "$t/vm"
LEDGER=1 VM_KEEP=$t/vm "$TOP/scripts/vm.sh" -p 2s4llc -w "$t/out" -- "$TOP/ledger/known.sh" "$t/out" ||
	fail "the known loads failed in the guest (exit $?)"
"$TOP/ledger/known-check.sh" "$t/vm/ledger.txt" "$t/out/known.map" >"$t/check" ||
	fail "the ledger is off a known answer: $(cat "$t/check")"
sed 's/^/# /' "$t/check"
