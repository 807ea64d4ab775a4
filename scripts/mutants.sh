#!/usr/bin/env bash
# A kselftest record of mutants, kernels broken on purpose: build the VM
# kernel once per MUTANT with its fault put in (MUTANT.patch, on top of
# build/linux), boot each on PRESET and run the installed kselftests, or
# KSFT_TEST alone; MUTANT.raw keeps the
# verdicts and the tests' own lines. The kernels are built as
# scripts/lib/mutant.sh says; build/linux is put back whatever happens.
# The record's run.sh calls it with the record's directory (where the
# patches are and the .raw files go) and its default mutants.
#   [KSFT_TEST=COLLECTION:TEST] scripts/mutants.sh DIR PRESET MUTANT...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/vm-run.sh"
[ $# -ge 3 ] || die "usage: scripts/mutants.sh DIR PRESET MUTANT..."
here=$(cd "$1" && pwd) preset=$2
shift 2
. "$TOP/scripts/lib/mutant.sh"
tree=$BUILD/linux
mutant_check
dir=$("$TOP/scripts/build-selftests.sh")
cleanup_on_exit 'git -C "$tree" checkout -q -- .'
for m in "$@"; do
	[ -f "$here/$m.patch" ] || die "no $m.patch in ${here#"$TOP"/}"
done
for m in "$@"; do
	mutant_build "$here/$m.patch" >/dev/null
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
