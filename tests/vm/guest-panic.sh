#!/usr/bin/env bash
# A guest that panics (here: no root filesystem) is a failure, reported as such.
. "$(dirname "$0")/../lib.sh"
expect_error 99 'guest died before the command finished' -- \
	"$TOP/scripts/vm.sh" -t 120 -a "root=/dev/nonexistent" -- true
