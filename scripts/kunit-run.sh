#!/usr/bin/env bash
# The series' KUnit suite as upstream runs it: tools/testing/kunit/kunit.py
# with the suite's .kunitconfig (kernel/sched/tests), on x86_64 under QEMU
# with 8 CPUs (the NUMA cases need 5 or more), its kernel built in
# build/kunit-x86_64 through ccache. Prints kunit.py's summary and exits
# as it does.
#
# kunit.py asks QEMU for KVM first; on a machine where KVM hangs (this
# one's), a root run hides /dev/kvm from QEMU in a mount namespace of its
# own, so QEMU falls back to TCG. KUNIT_KVM=1 leaves /dev/kvm alone.
#   kunit-run.sh [SRC]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
src=$(cd "${1:-$BUILD/linux}" && pwd)
[ -f "$src/kernel/sched/tests/.kunitconfig" ] ||
	die "$src has no kernel/sched/tests/.kunitconfig; run 'make tree' first"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found; run 'make deps'"
run=(env CCACHE_BASEDIR="$TOP" "$src/tools/testing/kunit/kunit.py" run --arch=x86_64
	--kunitconfig=kernel/sched/tests --build_dir="$BUILD/kunit-x86_64"
	--make_options 'CC=ccache gcc' --jobs "$(($(nproc) + 1))" --timeout 600 --qemu_args='-smp 8')
cd "$src"
if [ -e /dev/kvm ] && [ "${KUNIT_KVM:-}" != 1 ] && [ "$(id -u)" = 0 ]; then
	unshare -m sh -c 'mount --bind /dev/null /dev/kvm && exec "$@"' sh "${run[@]}" >"$BUILD/kunit-x86_64.log" 2>&1 || rc=$?
else
	"${run[@]}" >"$BUILD/kunit-x86_64.log" 2>&1 || rc=$?
fi
grep -E 'Testing complete|FAILED|CRASHED|Elapsed' "$BUILD/kunit-x86_64.log" | sed 's/^\[[0-9:]*\] /# /' || true
! grep -qE 'Testing complete.*(skipped|failed)' "$BUILD/kunit-x86_64.log" ||
	die "cases were skipped or failed; see ${BUILD#"$TOP"/}/kunit-x86_64.log"
[ "${rc:-0}" = 0 ] || { tail -n 30 "$BUILD/kunit-x86_64.log" >&2; die "kunit.py failed (exit $rc); its output is in ${BUILD#"$TOP"/}/kunit-x86_64.log"; }
