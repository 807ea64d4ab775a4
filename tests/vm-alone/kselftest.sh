#!/usr/bin/env bash
# The kselftests on the patched kernel: every test runs (no SKIP on the
# default preset) and passes, and the runner's TAP is complete. Run alone:
# under TCG a second busy guest on the host blunts the migration effects
# the tests measure (a run next to another guest and a kernel build saw
# 9% instead of the usual 20-42% drop).
. "$(dirname "$0")/../lib.sh"
HOST_OTHERS_MAX=${HOST_OTHERS_MAX:-20}
bin=$("$TOP/scripts/build-selftests.sh") || fail "building the kselftest failed"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
rc=0
m0=$(host_mark) t0=$SECONDS
VM_KEEP=$t "$TOP/scripts/vm.sh" -t 900 -- "$bin" >"$t/tap" 2>&1 || rc=$?
others=$(host_others_pct "$m0" "$(host_mark)" $((SECONDS - t0)))
echo "# host: other processes used $others% of the host's CPU time during the run"
# The verdict stands only on an otherwise idle host (see host_mark in
# scripts/lib.sh); an idle host measures 1-5% here, one busy process
# beside the guest about 50% on this 2-CPU machine.
awk -v o="$others" -v l="$HOST_OTHERS_MAX" 'BEGIN { exit !(o > l) }' &&
	fail "the host was busy: other processes used $others% of its CPU time (limit $HOST_OTHERS_MAX%), and under TCG that changes the migration counts the tests measure; rerun with nothing else running on the host"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$t/tap")
[ -n "$plan" ] || fail "no TAP plan (exit $rc): $(tail -n 20 "$t/tap")"
grep -E '^not ok' "$t/tap" && fail "failures (exit $rc): $(grep -E '^(not ok|# )' "$t/tap")"
grep -E '^ok .*# SKIP' "$t/tap" && fail "skipped on the patched kernel: $(grep '^# ' "$t/tap")"
n=$(grep -cE '^ok [0-9]+ ' "$t/tap")
[ "$n" = "$plan" ] || fail "$n of $plan tests reported ok"
[ "$rc" = 0 ] || fail "runner exit $rc"
grep -E '^# [^T]' "$t/tap" | head -n 12
echo "# $n of $plan kselftests passed"
