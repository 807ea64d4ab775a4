#!/usr/bin/env bash
# check: full, budget 240 s
# The 32-CPU preset boots and passes its topology check (8 LLCs, 2 nodes).
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
VM_KEEP=$t "$TOP/scripts/vm.sh" -p 2s8llc -- true || fail "boot failed (exit $?)"
[ "$(grep -c '^llc ' "$t/topology")" = 8 ] || fail "want 8 LLCs: $(cat "$t/topology")"
sed 's/^/# /' "$t/topology" | grep -v smt
