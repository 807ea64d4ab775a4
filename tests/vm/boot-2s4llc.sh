#!/usr/bin/env bash
# The 16-CPU preset boots, passes its topology check, and returns the command's
# stdout, stderr and exit status exactly.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
rc=0
"$TOP/scripts/vm.sh" -p 2s4llc -- sh -c 'nproc; echo to-stderr >&2; exit 3' >"$t/out" 2>"$t/err" || rc=$?
[ "$rc" = 3 ] || fail "exit status $rc, want 3; stderr: $(cat "$t/err")"
[ "$(cat "$t/out")" = 16 ] || fail "stdout '$(cat "$t/out")', want 16"
grep -qx to-stderr "$t/err" || fail "stderr lost: $(cat "$t/err")"
