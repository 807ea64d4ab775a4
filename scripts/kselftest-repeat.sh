#!/usr/bin/env bash
# The flake rate of the series' kselftests: one boot of PRESET, then RUNS
# passes over their tests, one test per invocation (PROG -t TEST), and a
# table per test of how many runs passed, failed or skipped and how long
# they took (scripts/kselftest-tally.sh).
#
#   kselftest-repeat.sh [-p PRESET] [-n RUNS] [-x TEST]... [TEST...]
#
# TESTS default to all the programs list (`PROG -l` for each program in the
# install's kselftest-list.txt); -x leaves one out (e.g. -x numa_imb_pinned,
# the slowest). Each run's TAP and the summary go to
# results/<time>-<preset>-repeat/, written as the guest goes, so a stopped
# run keeps its data in the .partial directory; the guest's console, dmesg
# and topology go to its vm/. Exit status 1 when any run of any test failed
# or timed out, or the guest died (a splat, a panic or a hang); bad input is
# refused before any boot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/results.sh"
. "$TOP/scripts/lib/vm-run.sh"

preset=${PRESET:-$(preset_default default)}
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
need_preset "$preset"

# KS_DIR stands for the kselftest install (the harness test's stand-in);
# else it is built from build/linux.
dir=${KS_DIR:-$("$TOP/scripts/build-selftests.sh")}
[ -f "$dir/kselftest-list.txt" ] || die "$dir has no kselftest-list.txt; run 'make tree' (a kselftest install holds one)"
# The tests of each program, from its -l table (the test name starts in
# column 48), and the program that holds each.
all=()
declare -A prog_of=()
while IFS=: read -r coll prog; do
	[ -n "$prog" ] || continue
	while read -r t; do
		[ -z "${prog_of[$t]:-}" ] || die "test '$t' is in both $coll/$prog and ${prog_of[$t]}"
		prog_of[$t]=$coll/$prog
		all+=("$t")
	done < <("$dir/$coll/$prog" -l 2>&1 | tail -n +2 | cut -c48- | grep -vE '^-*$' || true)
done <"$dir/kselftest-list.txt"
[ ${#all[@]} -gt 0 ] || die "the programs in $dir/kselftest-list.txt list no test (PROG -l)"
known() {
	local a
	for a in "${all[@]}"; do [ "$a" != "$1" ] || return 0; done
	return 1
}
for t in "${skip[@]}"; do
	known "$t" || die "-x $t: unknown test; the kselftests have: ${all[*]}"
done
[ $# -gt 0 ] || set -- "${all[@]}"
tests=()
declare -A named=()
for t in "$@"; do
	known "$t" || die "unknown test '$t'; the kselftests have: ${all[*]}"
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
# run as not ok (guest-repeat.sh): a guard against a hung program only,
# since each test's own TEST_F_TIMEOUT (at most 360 s, hackbench_test's)
# ends it first. The guest's own limit, only there to end a hung guest:
# 10 min for the boot, then every test's limit once per run.
args=() per_run=0
for t in "${tests[@]}"; do
	limit=420
	args+=("${prog_of[$t]}:$t=$limit")
	per_run=$((per_run + limit + 10))
done
rc=0
VM_KEEP=$RESULTS/vm vm_run "$RESULTS/out" -p "$preset" -k "$kernel" -w "$RESULTS" \
	-t $((600 + runs * per_run)) -- \
	"$TOP/scripts/guest-repeat.sh" "$dir" "$RESULTS" "$runs" "${args[@]}" || rc=$?
trc=0
"$TOP/scripts/kselftest-tally.sh" "$RESULTS/summary" || trc=$?
if [ "$rc" != 0 ] || ! grep -qx done "$RESULTS/summary"; then
	echo "error: the guest stopped before the last run (exit $rc; 98 = a splat on the console, 99 = panic or hang); what it measured is in ${RESULTS#"$TOP"/}/" >&2
	exit 1
fi
[ "$trc" = 0 ] || { echo "error: a test failed; its TAP is in ${RESULTS#"$TOP"/}/" >&2; exit 1; }
results_commit
echo "# results in ${RESULTS#"$TOP"/}/"
