#!/usr/bin/env bash
# check: full, budget 240 s
# A guest whose topology is not the preset's (numa=off folds the two nodes into
# one) fails loudly with status 97 and does not run the command.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
rc=0
"$TOP/scripts/vm.sh" -a numa=off -- sh -c 'echo RAN' >"$t/out" 2>"$t/err" || rc=$?
[ "$rc" = 97 ] || fail "exit $rc, want 97: $(cat "$t/err")"
grep -q 'guest topology does not match the preset' "$t/err" || fail "no mismatch message: $(cat "$t/err")"
grep -q '^> node0 0-15' "$t/err" || fail "the diff does not show the folded node: $(cat "$t/err")"
[ ! -s "$t/out" ] || fail "the command ran despite the mismatch: $(cat "$t/out")"
grep '^[<>]' "$t/err" | sed 's/^/# /'
