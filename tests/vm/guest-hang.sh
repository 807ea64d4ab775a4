#!/usr/bin/env bash
# A guest that never finishes is killed at the timeout and reported as hung.
. "$(dirname "$0")/../lib.sh"
expect_error 99 'guest hung: no result after 20s' -- "$TOP/scripts/vm.sh" -t 20 -- sleep 600
