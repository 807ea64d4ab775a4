#!/usr/bin/env bash
# The body of the kselftest stages of make check (tests/vm/kselftest-*.sh,
# tests/vm-alone/kselftest-*.sh), not a test itself: boot KS_PRESET (default
# @small of scripts/presets), run the install's run_kselftest.sh with
# KS_ARGS (default: every program), and pass when every test it selects
# runs and passes, and the runner's TAP is complete.
# With KS_ALONE=1 the stage runs alone on an otherwise idle host: under TCG,
# what else the host runs changes the guest's timing and blunts the
# migration effects wakeup_test measures (see host_mark in tests/lib.sh).
# So the host's other CPU use during the run is measured, and above
# HOST_OTHERS_MAX percent of all its CPUs the stage fails whatever the tests
# said: a verdict that depends on what else ran would not give the same
# answer twice. Steal is not in that share: a machine that is itself a guest
# loses CPU time to its neighbours, which nothing run here causes or can
# stop, and a guard on it would fail passing runs at random. It is printed,
# and named in a failure.
. "$(dirname "$0")/lib.sh"
HOST_OTHERS_MAX=${HOST_OTHERS_MAX:-20}
preset=${KS_PRESET:-$(preset_default small)}
# No test may skip on a preset of make check: every one runs on two cores
# of an LLC with SMT. The guest's limit is the stage's budget's order.
case $preset in
zen3) limit=2700 ;;
*) limit=900 ;;
esac
dir=$("$TOP/scripts/build-selftests.sh") || fail "building the kselftests failed"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
rc=0
read -ra args <<<"${KS_ARGS:-}"
m0=$(host_mark)
VM_KEEP=$t "$TOP/scripts/vm.sh" -p "$preset" -t "$limit" -- "$dir/run_kselftest.sh" "${args[@]}" >"$t/tap" 2>&1 || rc=$?
m1=$(host_mark)
busy= why=
if [ "${KS_ALONE:-0}" = 1 ]; then
	others=$(host_others_pct "$m0" "$m1")
	steal=$(host_steal_pct "$m0" "$m1")
	echo "# host: other CPU use $others% of the host during the run (limit $HOST_OTHERS_MAX%), steal $steal%"
	# The marks themselves (busy, all, our children's, steal ticks), to
	# tell where a high share came from.
	echo "# host ticks before and after: $m0 / $m1"
	awk -v o="$others" -v l="$HOST_OTHERS_MAX" 'BEGIN { exit !(o > l) }' &&
		busy="the host was busy: other CPU use $others% (limit $HOST_OTHERS_MAX%), which under TCG changes the migration counts the tests measure; rerun with nothing else running on the host. "
	# Steal goes into a failure's message, and fails nothing by itself.
	why=$busy
	awk -v s="$steal" -v l="$HOST_OTHERS_MAX" 'BEGIN { exit !(s > l) }' &&
		why="${why}The hypervisor under this machine took $steal% of its CPU time (steal), which slows the guest as a busy host does. "
fi
counts=$("$TOP/scripts/kselftest-tap.sh" "$t/tap") || true
eval "$(echo "$counts" | head -n1)"
failed=$(echo "$counts" | sed -n 's/^failed: *//p')
skipped=$(echo "$counts" | sed -n 's/^skipped: *//p')
[ "$programs" -gt 0 ] || fail "${why}no program ran (exit $rc): $(tail -n 20 "$t/tap")"
[ "$prog_fail" = 0 ] && [ "$notok" = 0 ] ||
	fail "${why}failures (exit $rc): ${failed:-a program, no test}; $(grep -E '^(not ok|# (not ok|# ))' "$t/tap" | tail -n 40)"
[ -z "$skipped" ] && [ "$prog_skip" = 0 ] ||
	fail "${why}skipped on the patched kernel on $preset: $skipped; $(grep -E '^# (ok .*# SKIP|# )' "$t/tap" | tail -n 40)"
[ "$tests" = "$plan" ] && [ "$ok" = "$plan" ] || fail "${why}$ok of $plan tests reported ok"
[ "$rc" = 0 ] || fail "${why}run_kselftest.sh exit $rc"
[ -z "$busy" ] || fail "${busy}(The tests passed.)"
# make check shows only the first 12 lines of a passing stage (the two host
# lines above among them): the pass count goes first, then each program's
# time and the tests' own lines.
echo "# $ok of $plan kselftests in $programs programs passed on $preset"
grep -E '^# # ' "$t/tap" | grep -vE '^# # +(RUN|OK|PASSED|Totals|Starting|TAP|[0-9]+\.\.)' | awk '++k <= 12'
