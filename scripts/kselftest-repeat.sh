#!/usr/bin/env bash
# The flake rate of the kselftest runner: one boot of PRESET, then RUNS
# passes over the runner's tests, one test per invocation (-t NAME), and a
# table per test of how many runs passed, failed or skipped and how long
# they took (scripts/kselftest-tally.sh).
#
#   kselftest-repeat.sh [-p PRESET] [-n RUNS] [-x TEST]... [TEST...]
#
# TESTS default to all of the runner's (`sched_placement_test -l`); -x leaves
# one out (e.g. -x hackbench_both: 80 pairs, about 10 min a run on zen3).
# Each run's TAP and the summary go to results/<time>-<preset>-repeat/, written
# as the guest goes, so a stopped run keeps its data in the .partial
# directory; the guest's console, dmesg and topology go to its vm/. Exit
# status 1 when any run of any test failed or timed out, or the guest died
# (a splat, a panic or a hang); bad input is refused before any boot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

preset=${PRESET:-zen3}
runs=20
skip=()
usage() {
	echo "usage: kselftest-repeat.sh [-p PRESET] [-n RUNS] [-x TEST]... [TEST...]" >&2
	exit 2
}
while getopts "p:n:x:h" o; do
	case $o in
	p) preset=$OPTARG ;;
	n) runs=$OPTARG ;;
	x) skip+=("$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "-n $runs: the number of runs must be a positive integer"
awk -v p="$preset" '!/^#/ && $1 == p { f = 1 } END { exit !f }' "$TOP/scripts/presets" ||
	die "unknown preset '$preset'; known presets: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$TOP/scripts/presets")"

# KS_RUNNER stands for the runner (the harness test's stand-in); else it is
# built from build/linux.
bin=${KS_RUNNER:-$("$TOP/scripts/build-selftests.sh")}
mapfile -t all < <("$bin" -l | awk '{ print $1 }')
[ ${#all[@]} -gt 0 ] || die "$bin -l lists no test"
known() {
	local a
	for a in "${all[@]}"; do [ "$a" != "$1" ] || return 0; done
	return 1
}
for t in "${skip[@]}"; do
	known "$t" || die "-x $t: unknown test; the runner has: ${all[*]}"
done
[ $# -gt 0 ] || set -- "${all[@]}"
tests=()
declare -A named=()
for t in "$@"; do
	known "$t" || die "unknown test '$t'; the runner has: ${all[*]}"
	[ -z "${named[$t]:-}" ] || die "test '$t' named twice"
	named[$t]=1
	[[ " ${skip[*]} " == *" $t "* ]] || tests+=("$t")
done
[ ${#tests[@]} -gt 0 ] || die "no test left to run: every test named is left out with -x"

kernel=$BUILD/kbuild-vm/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no VM kernel at ${kernel#"$TOP"/}; run 'make kernel'"
results_begin "$(date -u +%Y%m%dT%H%M%SZ)-$preset-repeat"
echo "tests: ${tests[*]}" >"$RESULTS/summary"
note "$runs runs of ${#tests[*]} tests on $preset into ${RESULTS#"$TOP"/}/"
# Each test's time limit, after which the guest kills it and counts the
# run as not ok (guest-repeat.sh): 15 min for hackbench_both (about 10 min
# on zen3), 4 min for any other (numa_imb_pinned, the slowest of them, took
# 70-80 s a run on zen3). The guest's own limit, only there to end a hung
# guest: 10 min for the boot, then every test's limit once per run.
args=() per_run=0
for t in "${tests[@]}"; do
	limit=240
	[ "$t" != hackbench_both ] || limit=900
	args+=("$t=$limit")
	per_run=$((per_run + limit + 10))
done
rc=0
VM_KEEP=$RESULTS/vm vm_run "$RESULTS/out" -p "$preset" -k "$kernel" -w "$RESULTS" \
	-t $((600 + runs * per_run)) -- \
	"$TOP/scripts/guest-repeat.sh" "$bin" "$RESULTS" "$runs" "${args[@]}" || rc=$?
trc=0
"$TOP/scripts/kselftest-tally.sh" "$RESULTS/summary" || trc=$?
if [ "$rc" != 0 ] || ! grep -qx done "$RESULTS/summary"; then
	echo "error: the guest stopped before the last run (exit $rc; 98 = a splat on the console, 99 = panic or hang); what it measured is in ${RESULTS#"$TOP"/}/" >&2
	exit 1
fi
[ "$trc" = 0 ] || { echo "error: a test failed; its TAP is in ${RESULTS#"$TOP"/}/" >&2; exit 1; }
results_commit
echo "# results in ${RESULTS#"$TOP"/}/"
