#!/usr/bin/env bash
# check: quick, budget 300 s
# The Zen3-shaped target preset boots and passes its topology check: 64 CPUs
# shown as AMD family 25 (EPYC-Milan), four 16-CPU LLCs read from CPUID
# 0x8000001D (topoext), two nodes, domains SMT MC PKG NUMA.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
VM_KEEP=$t "$TOP/scripts/vm.sh" -p zen3 -- sh -c 'grep -m1 "model name" /proc/cpuinfo' >"$t/out" ||
	fail "boot failed (exit $?)"
grep -qx 'vendor AuthenticAMD family 25' "$t/topology" || fail "not an AMD family 25 guest: $(cat "$t/topology")"
[ "$(grep -c '^llc ' "$t/topology")" = 4 ] || fail "want 4 LLCs: $(cat "$t/topology")"
grep -qx 'llc 0-15' "$t/topology" || fail "want a 16-CPU LLC 0-15: $(cat "$t/topology")"
sed 's/^/# /' "$t/out"
sed 's/^/# /' "$t/topology" | grep -v smt
