#!/usr/bin/env bash
# check: full, budget 180 s
# A guest that never finishes is killed at the timeout and reported as hung,
# and nothing of it (QEMU) is left running afterwards.
. "$(dirname "$0")/../lib.sh"
marker=sp_hang_test_$$
expect_error 99 'guest hung: no result after 20s' -- "$TOP/scripts/vm.sh" -t 20 -a "$marker" -- sleep 600
sleep 2
left=$(pgrep -f "$marker" || true)
[ -z "$left" ] || { pkill -f "$marker"; fail "QEMU still running after the timeout: $left"; }
