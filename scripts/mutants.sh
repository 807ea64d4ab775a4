#!/usr/bin/env bash
# A kselftest record of mutants, kernels broken on purpose: build the VM
# kernel once per MUTANT with its fault put in (MUTANT.patch, on top of
# build/linux), boot each on PRESET and run the installed kselftests, or
# KSFT_TEST alone; MUTANT.raw keeps the
# verdicts and the tests' own lines. build/linux is put back whatever
# happens; the mutant kernels build in build/kbuild-mutant, a copy of
# build/kbuild-vm, so only the files a patch touches are compiled.
# The record's run.sh calls it with the record's directory (where the
# patches are and the .raw files go) and its default mutants.
#   [KSFT_TEST=COLLECTION:TEST] scripts/mutants.sh DIR PRESET MUTANT...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/vm-run.sh"
[ $# -ge 3 ] || die "usage: scripts/mutants.sh DIR PRESET MUTANT..."
here=$(cd "$1" && pwd) preset=$2
shift 2
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
	vm_run "$t" -p "$preset" -k "$BUILD/mutants/$m-bzImage" -t 1800 -- \
		"$dir/run_kselftest.sh" ${KSFT_TEST:+-t "$KSFT_TEST"} || true
	{
		echo "# mutant $m, preset $preset, build/linux $(git -C "$tree" rev-parse --short=12 HEAD)"
		"$TOP/scripts/kselftest-tap.sh" "$t" || true
		grep -aE '^(not )?ok [0-9]|^# (not )?ok [0-9]|^# # .*(median|Expected|want|runs with|on: )' "$t" | tr -d '\r'
	} >"$here/$m.raw"
	rm -f "$t"
	head -n 3 "$here/$m.raw"
done
