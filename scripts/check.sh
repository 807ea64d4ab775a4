#!/usr/bin/env bash
# `make check`: every test of the project, as TAP, ending with "N passed, N failed".
# Exits non-zero if any test failed. Stages:
#   harness  unit tests of the glue and its failure paths (no VM)
#   tree     assemble build/linux; export it back; nothing in the repo may change
#   series   checkpatch --strict, every commit builds, W=1 adds no warnings,
#            make series and git am of its output
#   kernel   build the VM kernel
#   vm       boots on every preset (topology check), failure paths, smoke A/B;
#            two at a time, since TCG runs each guest on one host thread
#   vm-alone tests whose guest timing must not compete with another guest
#            (the kselftest migration counts), one at a time, after the rest
# CHECK_ONLY=REGEX runs only the tests whose name (as printed) matches, e.g.
# CHECK_ONLY='^vm: ' or CHECK_ONLY=kselftest. A VM test brings the tools and
# kernel steps with it; when either fails, the VM tests fail unrun.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

res=$(mktemp -d "${TMPDIR:-/tmp}/sp-check.XXXXXX")
cleanup_on_exit 'rm -rf "$res"'
n=0 passed=0 failed=0 skipped=0
start=$(date +%s)

# report NAME RC LOGFILE
report() {
	n=$((n + 1))
	case $2 in
	0) echo "ok $n - $1"; passed=$((passed + 1)) ;;
	4) echo "ok $n - $1 # SKIP"; skipped=$((skipped + 1)) ;;
	*) echo "not ok $n - $1 (exit $2)"; failed=$((failed + 1)) ;;
	esac
	[ -f "$3.secs" ] && echo "# $(cat "$3.secs") s" && echo "$(cat "$3.secs") $1" >>"$res/times"
	[ "$2" = 0 ] && grep '^#' "$3" | head -n 12
	[ "$2" = 0 ] || sed 's/^/# /' "$3" | tail -n 25
}
selected() { [[ $1 =~ ${CHECK_ONLY:-.} ]]; }
# run [-f] NAME CMD...: run now, report; -f runs it even when CHECK_ONLY
# does not select it
run() {
	local force= rc=0 t0=$SECONDS name
	[ "$1" != -f ] || { force=1; shift; }
	name=$1
	shift
	[ -n "$force" ] || selected "$name" || return 0
	"$@" >"$res/log" 2>&1 || rc=$?
	echo $((SECONDS - t0)) >"$res/log.secs"
	report "$name" "$rc" "$res/log"
	return "$rc"
}

# The VM tests boot the kernel in build/ and smoke-ab runs build/bin/stats:
# when CHECK_ONLY selects any of them, the tools and kernel steps run too,
# so that they never test an older kernel or tool than the repo's (make tree
# is a no-op when the series did not change).
vmtests=() alonetests=() vm_selected=
for t in "$TOP"/tests/vm/*.sh; do
	selected "vm: $(basename "$t" .sh)" && vmtests+=("$t")
done
for t in "$TOP"/tests/vm-alone/*.sh; do
	selected "vm: $(basename "$t" .sh) (alone)" && alonetests+=("$t")
done
[ $((${#vmtests[@]} + ${#alonetests[@]})) = 0 ] || vm_selected=-f
# A VM test that cannot have the current kernel or tools fails unrun.
vm_ok=1
not_run() { # NAME
	echo "not run: the tools or kernel step failed, and build/ may hold an older kernel" >"$res/log"
	rm -f "$res/log.secs"
	report "$1" 1 "$res/log"
}

echo "TAP version 13"
run $vm_selected "tools: build bench/stats" make -s -C "$TOP" tools || vm_ok=

for t in "$TOP"/tests/harness/*.sh; do
	run "harness: $(basename "$t" .sh)" bash "$t"
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
run "tree: assemble build/linux, export round trip changes nothing" round_trip
run "series: checkpatch.pl --strict clean" "$TOP/scripts/series-check.sh" checkpatch
run "series: get_maintainer.pl names SCHEDULER for every patch" "$TOP/scripts/series-check.sh" maintainers
run "series: every commit builds (bisectable)" "$TOP/scripts/series-check.sh" bisect
kernel_step() { "$TOP/scripts/mktree.sh" >/dev/null && "$TOP/scripts/build-kernel.sh"; }
run $vm_selected "kernel: build the VM kernel (configs/vm.config)" kernel_step || vm_ok=
run "series: the KUnit suite passes under kunit.py (x86_64, its .kunitconfig, 8 CPUs)" "$TOP/scripts/kunit-run.sh"
run "series: make W=1 kernel/sched/ adds no warnings over the base (VM config, less SCHEDSTATS, less NUMA, Clang 19)" "$TOP/scripts/series-check.sh" w1
run "series: make series (cover letter, bloat-o-meter, signed off by the sender, no placeholder identity), git am reproduces the tree" "$TOP/scripts/series-check.sh" mail

# VM tests, two at a time, reported in order.
[ ${#vmtests[@]} = 0 ] || [ -z "$vm_ok" ] || printf '%s\n' "${vmtests[@]}" | xargs -P 2 -I{} sh -c \
	'b=$(basename {} .sh); t0=$(date +%s); bash {} >'"$res"'/$b.log 2>&1; echo $? >'"$res"'/$b.rc; echo $(($(date +%s) - t0)) >'"$res"'/$b.log.secs'
for t in "${vmtests[@]+"${vmtests[@]}"}"; do
	b=$(basename "$t" .sh)
	if [ -n "$vm_ok" ]; then
		report "vm: $b" "$(cat "$res/$b.rc" 2>/dev/null || echo 1)" "$res/$b.log"
	else
		not_run "vm: $b"
	fi
done

# Then the VM tests that need the host to themselves.
for t in "${alonetests[@]+"${alonetests[@]}"}"; do
	name="vm: $(basename "$t" .sh) (alone)"
	if [ -n "$vm_ok" ]; then
		run "$name" bash "$t"
	else
		not_run "$name"
	fi
done

if [ "$n" = 0 ]; then
	echo "error: CHECK_ONLY='${CHECK_ONLY:-}' matches no test; the names are those make check prints after 'ok N - '" >&2
	exit 2
fi
echo "1..$n"
echo "# $(($(date +%s) - start)) s"
# Where the time went: the five slowest tests (the VM tests ran two at a
# time, so theirs overlap).
if [ -s "$res/times" ]; then
	echo "# slowest:"
	sort -rn "$res/times" | head -n 5 | sed 's/^\([0-9]*\) /#   \1 s  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
