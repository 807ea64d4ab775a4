#!/usr/bin/env bash
# Build and install the series' kselftests (TARGETS=sched/placement) from
# build/linux (or SRC) with the kernel's own selftests Makefile, into
# build/selftests/install, and print that directory. Its run_kselftest.sh
# runs them as kselftest CI does (-t sched/placement:PROG for one program).
# The guest sees the host's root, so the same install runs on the patched
# and on the base kernel.
#   build-selftests.sh [SRC]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
src=$(cd "${1:-$BUILD/linux}" && pwd)
[ -f "$src/tools/testing/selftests/sched/placement/Makefile" ] ||
	die "$src has no tools/testing/selftests/sched/placement; run 'make tree' first"
command -v rsync >/dev/null || die "rsync not found (the selftests' install uses it); run 'make deps'"
out=$BUILD/selftests
mkdir -p "$out"
# One build at a time: make check runs two kselftest stages side by side,
# and both would write the same objects.
exec 9>"$out/lock"
flock 9
# Install into a scratch directory and rename it, so a failed build leaves
# the last good install, never half of one. KHDR_INCLUDES empty: build
# against the host's UAPI headers instead of running 'make headers' in the
# source tree.
tmp=$(mktemp -d "$out/install.XXXXXX")
cleanup_on_exit 'rm -rf "$tmp"'
# PLACEMENT_EMULATOR_BARS=1: hackbench_test, numa_test and wakeup_test in
# the run list too (their bars are the emulator's, which is where these
# runs are).
make -s -C "$src/tools/testing/selftests" TARGETS=sched/placement KHDR_INCLUDES= PLACEMENT_EMULATOR_BARS=1 \
	O="$out/obj" INSTALL_PATH="$tmp" install >"$tmp.log" 2>&1 ||
	{ cat "$tmp.log" >&2; rm -f "$tmp.log"; die "building the kselftests failed"; }
rm -f "$tmp.log"
# An install equal to the last is dropped: a guest of another stage may be
# running the last one's programs.
if [ -d "$out/install" ] && diff -rq "$tmp" "$out/install" >/dev/null 2>&1; then
	rm -rf "$tmp"
else
	rm -rf "$out/install"
	mv "$tmp" "$out/install"
fi
echo "$out/install"
