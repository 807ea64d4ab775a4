#!/usr/bin/env bash
# Every kselftest of the series can fail: build the VM kernel three times
# with a fault put in on purpose (MUTANT.patch, on top of build/linux), boot
# each on PRESET and run the installed kselftests; MUTANT.raw keeps the
# verdicts and the tests' own lines. build/linux is put back whatever
# happens; the mutant kernels build in build/kbuild-mutant, a copy of
# build/kbuild-vm, so only the files a patch touches are compiled.
#   docs/results/2026-12-05-kselftest-mutants/run.sh [PRESET] [MUTANT...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../../.." && pwd)
. "$TOP/scripts/lib.sh"
preset=${1:-2s4llc}
shift || true
[ $# -gt 0 ] || set -- interfaces inert fit-first
tree=$BUILD/linux
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes; run 'make tree' first"
[ -f "$BUILD/kbuild-vm/.config" ] || die "no build/kbuild-vm; run 'make kernel' first"
dir=$("$TOP/scripts/build-selftests.sh")
cleanup_on_exit 'git -C "$tree" checkout -q -- .'
mkdir -p "$BUILD/mutants"
for m in "$@"; do
	[ -f "$here/$m.patch" ] || die "no $m.patch in ${here#"$TOP"/}"
	git -C "$tree" apply "$here/$m.patch"
	rsync -a --delete "$BUILD/kbuild-vm/" "$BUILD/kbuild-mutant/"
	k=$("$TOP/scripts/build-kernel.sh" "$tree" "$BUILD/kbuild-mutant")
	cp "$k" "$BUILD/mutants/$m-bzImage"
	git -C "$tree" checkout -q -- .
done
for m in "$@"; do
	t=$(mktemp)
	"$TOP/scripts/vm.sh" -p "$preset" -k "$BUILD/mutants/$m-bzImage" -t 1800 -- \
		"$dir/run_kselftest.sh" >"$t" 2>&1 || true
	{
		echo "# mutant $m, preset $preset, build/linux $(git -C "$tree" rev-parse --short=12 HEAD)"
		"$TOP/scripts/kselftest-tap.sh" "$t" || true
		grep -aE '^(not )?ok [0-9]|^# (not )?ok [0-9]|^# # .*(median|Expected|want|runs with|on: )' "$t" | tr -d '\r'
	} >"$here/$m.raw"
	rm -f "$t"
	head -n 3 "$here/$m.raw"
done
