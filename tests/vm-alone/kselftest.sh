#!/usr/bin/env bash
# The kselftests on the patched kernel: every test runs and passes, and the
# runner's TAP is complete. Run alone,
# on an otherwise idle host: under TCG, what else the host runs changes the
# guest's timing and blunts the migration effects the tests measure (see
# host_mark in scripts/lib.sh). So the host's other CPU use during the run
# is measured, and above HOST_OTHERS_MAX percent of all its CPUs the stage
# fails whatever the tests said: a verdict that depends on what else ran
# would not give the same answer twice. An idle host measures 0.5-5% here;
# on this 2-CPU machine one busy process beside the guest, about 50%.
# Steal is not in that share: a machine that is itself a guest loses CPU
# time to its neighbours (20.6% and 29.0% of this one in two samples),
# which nothing run here causes or can stop, and a guard on it would fail
# passing runs at random. It is printed, and named in a failure.
# KS_PRESET picks the preset (default 2s4llc; kselftest-zen3.sh sets zen3).
. "$(dirname "$0")/../lib.sh"
HOST_OTHERS_MAX=${HOST_OTHERS_MAX:-20}
preset=${KS_PRESET:-2s4llc}
# Each limit leaves more than twice what the runner took with the boot
# (make check, 2026-12-04: 274 s on 2s4llc, 433 s on zen3). No test may
# skip on either: every one runs on two cores of an LLC with SMT.
case $preset in
zen3) limit=2700 ;;
*) limit=900 ;;
esac
dir=$("$TOP/scripts/build-selftests.sh") || fail "building the kselftests failed"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
rc=0
m0=$(host_mark)
VM_KEEP=$t "$TOP/scripts/vm.sh" -p "$preset" -t "$limit" -- "$dir/run_kselftest.sh" >"$t/tap" 2>&1 || rc=$?
m1=$(host_mark)
others=$(host_others_pct "$m0" "$m1")
steal=$(host_steal_pct "$m0" "$m1")
echo "# host: other CPU use $others% of the host during the run (limit $HOST_OTHERS_MAX%), steal $steal%"
# The marks themselves (busy, all, our children's, steal ticks), to tell
# where a high share came from.
echo "# host ticks before and after: $m0 / $m1"
busy=
awk -v o="$others" -v l="$HOST_OTHERS_MAX" 'BEGIN { exit !(o > l) }' &&
	busy="the host was busy: other CPU use $others% (limit $HOST_OTHERS_MAX%), which under TCG changes the migration counts the tests measure; rerun with nothing else running on the host. "
# Steal goes into a failure's message, and fails nothing by itself.
why=$busy
awk -v s="$steal" -v l="$HOST_OTHERS_MAX" 'BEGIN { exit !(s > l) }' &&
	why="${why}The hypervisor under this machine took $steal% of its CPU time (steal), which slows the guest as a busy host does. "
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
