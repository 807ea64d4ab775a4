#!/usr/bin/env bash
# `make check` (quick tier) and `make check-full` (every test): TAP, ending
# with "N passed, N failed". Exits non-zero if any test failed.
#   check.sh [quick|full]
# Each test declares its tier and time budget once, on itself: a test file
# in its second line ("# check: quick, budget 60 s"), a stage of this file
# in its run call. A test that passes but takes longer than its budget
# fails. Stages, in order:
#   harness  unit tests of the glue and its failure paths (no VM)
#   tree     assemble build/linux; export it back; nothing in the repo may change
#   series   checkpatch --strict, every commit builds, W=1 adds no warnings,
#            KUnit under kunit.py, make series and git am of its output
#   kernel   build the VM kernel
#   vm       boots, KUnit at boot, kselftests, failure paths, smoke A/Bs;
#            two at a time, since TCG runs each guest on one host thread
#   vm-alone tests whose guest timing must not compete with another guest
#            (the kselftest migration counts), one at a time, after the rest
# CHECK_ONLY=REGEX runs only the tests whose name (as printed) matches, in
# either tier, e.g. CHECK_ONLY='^vm: ' or CHECK_ONLY=kselftest. A VM test
# brings the tools and kernel steps with it; when either fails, the VM
# tests fail unrun.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

tier=${1:-quick}
case $tier in
quick | full) ;;
*) echo "usage: check.sh [quick|full]" >&2; exit 2 ;;
esac
res=$(mktemp -d "${TMPDIR:-/tmp}/sp-check.XXXXXX")
cleanup_on_exit 'rm -rf "$res"'
n=0 passed=0 failed=0 skipped=0
start=$(date +%s)

# report NAME RC LOGFILE [BUDGET]: a pass over BUDGET seconds is a failure.
report() {
	local secs=
	n=$((n + 1))
	[ -f "$3.secs" ] && secs=$(cat "$3.secs")
	if [ "$2" = 0 ] && [ -n "${4:-}" ] && [ -n "$secs" ] && [ "$secs" -gt "$4" ]; then
		echo "# passed, but took $secs s, over its budget of $4 s (declared on the test)" >>"$3"
		set -- "$1" 1 "$3" "$4"
	fi
	case $2 in
	0) echo "ok $n - $1"; passed=$((passed + 1)) ;;
	4) echo "ok $n - $1 # SKIP"; skipped=$((skipped + 1)) ;;
	*) echo "not ok $n - $1 (exit $2)"; failed=$((failed + 1)) ;;
	esac
	[ -z "$secs" ] || { echo "# $secs s${4:+ (budget $4 s)}"; echo "$secs ${4:--} $1" >>"$res/times"; }
	[ "$2" = 0 ] && grep '^#' "$3" | head -n 12
	[ "$2" = 0 ] || sed 's/^/# /' "$3" | tail -n 25
}
# wanted NAME TIER: CHECK_ONLY picks tests by name in either tier; without
# it, make check runs the quick tier and make check-full both.
wanted() {
	if [ -n "${CHECK_ONLY:-}" ]; then
		[[ $1 =~ $CHECK_ONLY ]]
	else
		[ "$tier" = full ] || [ "$2" = quick ]
	fi
}
# decl FILE: "TIER BUDGET" from a test file's second line, or nothing.
decl() {
	sed -n '2s/^# check: \(quick\|full\), budget \([0-9][0-9]*\) s$/\1 \2/p' "$1"
}
# run [-f] TIER BUDGET NAME CMD...: run now, report; -f runs it even when
# neither the tier nor CHECK_ONLY selects it.
run() {
	local force= rc=0 t0=$SECONDS name tier_ budget
	[ "$1" != -f ] || { force=1; shift; }
	tier_=$1 budget=$2 name=$3
	shift 3
	[ -n "$force" ] || wanted "$name" "$tier_" || return 0
	"$@" >"$res/log" 2>&1 || rc=$?
	echo $((SECONDS - t0)) >"$res/log.secs"
	report "$name" "$rc" "$res/log" "$budget"
	return "$rc"
}
# A test file without its declaration fails unrun: its tier and budget
# live on it, nowhere else.
undeclared() { # NAME FILE
	echo "${2#"$TOP"/} has no '# check: quick|full, budget N s' as its second line" >"$res/log"
	rm -f "$res/log.secs"
	report "$1" 1 "$res/log"
}
# tests_in DIR NAME-SUFFIX: the selected test files of DIR, a line each:
# "FILE BUDGET", or "FILE -" for one without its declaration.
tests_in() {
	local t d name
	for t in "$TOP/tests/$1"/*.sh; do
		name="vm: $(basename "$t" .sh)$2"
		d=$(decl "$t")
		if [ -z "$d" ]; then
			! wanted "$name" quick || echo "$t -"
		elif wanted "$name" "${d% *}"; then
			echo "$t ${d#* }"
		fi
	done
}

# The VM tests boot the kernel in build/ and smoke-ab runs build/bin/stats:
# when any of them is selected, the tools and kernel steps run too, so that
# they never test an older kernel or tool than the repo's (make tree is a
# no-op when the series did not change).
vmtests=() alonetests=() vm_selected=
mapfile -t vmtests < <(tests_in vm "")
mapfile -t alonetests < <(tests_in vm-alone " (alone)")
[ $((${#vmtests[@]} + ${#alonetests[@]})) = 0 ] || vm_selected=-f
# A VM test that cannot have the current kernel or tools fails unrun.
vm_ok=1
not_run() { # NAME
	echo "not run: the tools or kernel step failed, and build/ may hold an older kernel" >"$res/log"
	rm -f "$res/log.secs"
	report "$1" 1 "$res/log"
}

echo "TAP version 13"
echo "# tier: $tier${CHECK_ONLY:+, CHECK_ONLY=$CHECK_ONLY}"
run $vm_selected quick 300 "tools: build bench/stats" make -s -C "$TOP" tools || vm_ok=

for t in "$TOP"/tests/harness/*.sh; do
	name="harness: $(basename "$t" .sh)"
	d=$(decl "$t")
	if [ -z "$d" ]; then
		wanted "$name" quick && undeclared "$name" "$t"
		continue
	fi
	run $d "$name" bash "$t"
done

snapshot() {
	(cd "$TOP" && find series MAINTAINERS.patch kernel tools Documentation -type f 2>/dev/null |
		sort | xargs -r sha256sum | sha256sum)
}
round_trip() {
	local before after
	before=$(snapshot)
	# A fresh tree of its own (build/linux keeps its mtimes), exported back.
	BUILD=$res/rt "$TOP/scripts/mktree.sh" && BUILD=$res/rt "$TOP/scripts/export.sh" || return 1
	after=$(snapshot)
	[ "$before" = "$after" ] || { echo "# make tree && make export changed files:"; git -C "$TOP" status --short; return 1; }
	echo "# $(git -C "$res/rt/linux" log --oneline refs/sp/base..HEAD | wc -l) series commits on $(git -C "$res/rt/linux" log -1 --format=%s refs/sp/base)"
	rm -rf "$res/rt"
	"$TOP/scripts/mktree.sh"
}
run full 600 "tree: assemble build/linux, export round trip changes nothing" round_trip
# The first to build the kernel, and in the quick tier the first to fetch the
# base and assemble build/linux on a fresh clone: its budget holds all, cold.
kernel_step() { "$TOP/scripts/mktree.sh" >/dev/null && "$TOP/scripts/build-kernel.sh"; }
run $vm_selected quick 2400 "kernel: build the VM kernel (configs/vm.config)" kernel_step || vm_ok=
# The series stages read build/linux: each makes it current first (a no-op
# when it is), so that any tier or CHECK_ONLY selection finds it.
tree_then() { "$TOP/scripts/mktree.sh" >/dev/null && "$@"; }
run quick 180 "series: checkpatch.pl --strict clean" tree_then "$TOP/scripts/series-check.sh" checkpatch
run full 180 "series: get_maintainer.pl names SCHEDULER for every patch" tree_then "$TOP/scripts/series-check.sh" maintainers
run full 3600 "series: every commit builds (bisectable)" tree_then "$TOP/scripts/series-check.sh" bisect
run full 1800 "series: the KUnit suite passes under kunit.py (x86_64, its .kunitconfig, 8 CPUs)" tree_then "$TOP/scripts/kunit-run.sh"
run full 2400 "series: make W=1 kernel/sched/ adds no warnings over the base (VM config, less SCHEDSTATS, less NUMA, Clang 19)" tree_then "$TOP/scripts/series-check.sh" w1
run full 2400 "series: make series (cover letter, bloat-o-meter, signed off by the sender, no placeholder identity), git am reproduces the tree" tree_then "$TOP/scripts/series-check.sh" mail

# VM tests, two at a time, reported in order.
vmrun=()
for l in "${vmtests[@]+"${vmtests[@]}"}"; do
	[ "${l##* }" = - ] || vmrun+=("${l% *}")
done
[ ${#vmrun[@]} = 0 ] || [ -z "$vm_ok" ] || printf '%s\n' "${vmrun[@]}" | xargs -P 2 -I{} sh -c \
	'b=$(basename {} .sh); t0=$(date +%s); bash {} >'"$res"'/$b.log 2>&1; echo $? >'"$res"'/$b.rc; echo $(($(date +%s) - t0)) >'"$res"'/$b.log.secs'
for l in "${vmtests[@]+"${vmtests[@]}"}"; do
	t=${l% *} budget=${l##* } b=$(basename "${l% *}" .sh)
	if [ "$budget" = - ]; then
		undeclared "vm: $b" "$t"
	elif [ -n "$vm_ok" ]; then
		report "vm: $b" "$(cat "$res/$b.rc" 2>/dev/null || echo 1)" "$res/$b.log" "$budget"
	else
		not_run "vm: $b"
	fi
done

# Then the VM tests that need the host to themselves.
for l in "${alonetests[@]+"${alonetests[@]}"}"; do
	t=${l% *} budget=${l##* }
	name="vm: $(basename "$t" .sh) (alone)"
	if [ "$budget" = - ]; then
		undeclared "$name" "$t"
	elif [ -n "$vm_ok" ]; then
		run -f full "$budget" "$name" bash "$t"
	else
		not_run "$name"
	fi
done

if [ "$n" = 0 ]; then
	echo "error: CHECK_ONLY='${CHECK_ONLY:-}' matches no test of either tier; the names are those make check-full prints after 'ok N - '" >&2
	exit 2
fi
echo "1..$n"
echo "# $(($(date +%s) - start)) s"
# Where the time went: the five slowest tests (the VM tests ran two at a
# time, so theirs overlap).
if [ -s "$res/times" ]; then
	echo "# slowest (seconds taken, budget):"
	sort -rn "$res/times" | head -n 5 |
		awk '{ s = $1; b = $2; $1 = $2 = ""; sub(/^ +/, ""); printf "#   %5d %5s  %s\n", s, b, $0 }'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
