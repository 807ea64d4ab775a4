#!/usr/bin/env bash
# Build the series' kselftest runner from build/linux (or SRC) into
# build/selftests/sched/ and print its path. The guest sees the host's root,
# so the same binary runs on the patched and on the base kernel.
#   build-selftests.sh [SRC]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
src=$(cd "${1:-$BUILD/linux}" && pwd)
dir=$src/tools/testing/selftests/sched
[ -f "$dir/sched_placement_test.c" ] ||
	die "$dir has no sched_placement_test.c; run 'make tree' first"
out=$BUILD/selftests/sched
mkdir -p "$out"
# KHDR_INCLUDES empty: build against the host's UAPI headers instead of
# running 'make headers' inside the source tree.
make -s -C "$dir" OUTPUT="$out" KHDR_INCLUDES= "$out/sched_placement_test" >&2
echo "$out/sched_placement_test"
