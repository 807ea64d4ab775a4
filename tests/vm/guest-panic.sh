#!/usr/bin/env bash
# check: full, budget 120 s
# A guest that panics (here: no root filesystem) is a failure, reported as
# such: exit 99 after one boot, with the console's tail.
. "$(dirname "$0")/../lib.sh"
rc=0
out=$("$TOP/scripts/vm.sh" -t 120 -a "root=/dev/nonexistent" -- true 2>&1) || rc=$?
[ "$rc" = 99 ] || fail "exit $rc, want 99: $out"
echo "$out" | grep -q 'guest died before the command finished' || fail "no death report: $out"
echo "$out" | grep -q 'Kernel panic' || fail "the console tail does not show the panic: $out"
n=$(echo "$out" | grep -c 'Kernel panic - not syncing' || true)
[ "$n" = 1 ] || fail "$n panics in the output, want 1 (one boot): $out"
echo "# $(echo "$out" | grep -m1 'Kernel panic' | sed -E 's/^\[ *[0-9.]+\] //')"
