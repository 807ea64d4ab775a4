#!/usr/bin/env bash
# A guest whose topology is not the preset's (numa=off folds the two nodes into
# one) fails loudly and does not run the command.
. "$(dirname "$0")/../lib.sh"
expect_error 97 'guest topology does not match the preset' -- \
	"$TOP/scripts/vm.sh" -a numa=off -- sh -c 'echo RAN; exit 0'
out=$("$TOP/scripts/vm.sh" -a numa=off -- sh -c 'echo RAN' 2>/dev/null) || true
[ -z "$out" ] || fail "the command ran despite the mismatch"
