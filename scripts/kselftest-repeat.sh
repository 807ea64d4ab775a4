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
# directory. Exit status 1 when any run of any test failed.
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
all=$("$bin" -l | awk '{ print $1 }')
known() { grep -qxF -- "$1" <<<"$all"; }
for t in "${skip[@]}"; do
	known "$t" || die "-x $t: unknown test; the runner has: $(echo $all)"
done
[ $# -gt 0 ] || set -- $all
tests=()
for t in "$@"; do
	known "$t" || die "unknown test '$t'; the runner has: $(echo $all)"
	[[ " ${skip[*]} " == *" $t "* ]] || tests+=("$t")
done
[ ${#tests[@]} -gt 0 ] || die "no test left to run: every test named is left out with -x"

kernel=$BUILD/kbuild-vm/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no VM kernel at ${kernel#"$TOP"/}; run 'make kernel'"
results_begin "$(date -u +%Y%m%dT%H%M%SZ)-$preset-repeat"
echo "tests: ${tests[*]}" >"$RESULTS/summary"
note "$runs runs of ${#tests[*]} tests on $preset into ${RESULTS#"$TOP"/}/"
# The timeout, only there to end a hung guest: 10 min for the boot, then
# per run 15 min for hackbench_both (about 10 min on zen3) and 4 min for any
# other test (numa_imb_pinned is the slowest of them).
per_run=0
for t in "${tests[@]}"; do
	[ "$t" = hackbench_both ] && per_run=$((per_run + 900)) || per_run=$((per_run + 240))
done
rc=0
VM_KEEP=$RESULTS vm_run "$RESULTS/out" -p "$preset" -k "$kernel" -w "$RESULTS" \
	-t $((600 + runs * per_run)) -- \
	"$TOP/scripts/guest-repeat.sh" "$bin" "$RESULTS" "$runs" "${tests[@]}" || rc=$?
trc=0
"$TOP/scripts/kselftest-tally.sh" "$RESULTS/summary" || trc=$?
if [ "$rc" != 0 ] || ! grep -qx done "$RESULTS/summary"; then
	echo "error: the guest stopped before the last run (exit $rc; 98 = a splat on the console, 99 = panic or hang); what it measured is in ${RESULTS#"$TOP"/}/" >&2
	exit 1
fi
[ "$trc" = 0 ] || { echo "error: a test failed; its TAP is in ${RESULTS#"$TOP"/}/" >&2; exit 1; }
results_commit
echo "# results in ${RESULTS#"$TOP"/}/"
