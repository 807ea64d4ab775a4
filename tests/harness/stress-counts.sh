#!/usr/bin/env bash
# check: quick, budget 60 s
# make stress's judgement of sp-stress's counts (scripts/lib/stress-counts.sh),
# on outputs written here: a run passes with its toggles, hotplug cycles and
# both the fit's decisions (wake_fit_* summed) and the bias's (wake_bias_*) at
# their minimums; one short of any fails with a message naming the counts, as
# does an output without the wake_ lines; the record's counts file holds the
# end block's "name N" lines, not the progress lines. Bad -f values are
# refused: by stress.sh before anything is built, and by sp-stress (exit 2),
# as is -f with -B (the base has no sis_wake). Nothing touches the host.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib/stress-counts.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'

# sp-stress's output: FIT_TARGET and BIAS_LAST vary, the rest as a run prints.
run_out() { # FIT_TARGET BIAS_LAST
	cat <<EOF
# 16 CPUs, 2 nodes, 2400 s, seed 1, hotplug on, cpuset on, RT task 2 ms in 10 ms (sched_rt_runtime_us 950000)
# 30 s: 87 toggles, 2 hotplug cycles, 3 hackbench runs
# load time 2401 s
# switch toggles 4400
# sis_wake reads 9000
# hotplug cycles 290
# RT duty-cycle periods 230000
# all-switches-on seconds 1790
# wake_fit_target $1
# wake_fit_prev 30
# wake_fit_recent 10
# wake_bias_idle_prev 0
# wake_bias_last $2
# wake_no_room_util 2800
# wake_limit_idle_core 0
# unexpected events 0
EOF
}
run_out 60 100 >"$t/pass"
stress_judge "$t/pass" 1000 100 100 2>"$t/err" || fail "a run at every minimum failed: $(cat "$t/err")"
[ "$(stress_wake_sum "$t/pass" fit_)" = 100 ] || fail "fit_ sum $(stress_wake_sum "$t/pass" fit_), want 100"
[ "$(stress_wake_sum "$t/pass" bias_)" = 100 ] || fail "bias_ sum $(stress_wake_sum "$t/pass" bias_), want 100"
[ "$(stress_count "$t/pass" 'all-switches-on seconds')" = 1790 ] || fail "all-switches-on seconds not read"

run_out 59 100 >"$t/few-fits"
expect_error 1 "^error: 99 decisions of the fit \(wake_fit_\*\) and 100 of the bias \(wake_bias_\*\), want at least 100 of each$" -- stress_judge "$t/few-fits" 1000 100 100
run_out 60 99 >"$t/few-bias"
expect_error 1 "^error: 100 decisions of the fit .* and 99 of the bias .*, want at least 100 of each$" -- stress_judge "$t/few-bias" 1000 100 100
# An sp-stress without the wake_ lines: no decisions, whatever else it did.
grep -v '^# wake_' "$t/pass" >"$t/no-wake"
expect_error 1 "^error: 0 decisions of the fit .* and 0 of the bias .*, want at least 1 of each \(no wake_ counts in the output\)$" -- stress_judge "$t/no-wake" 1000 100 1
expect_error 1 "^error: 4400 switch toggles, want at least 4401$" -- stress_judge "$t/pass" 4401 100 100
expect_error 1 "^error: 290 hotplug cycles, want at least 291$" -- stress_judge "$t/pass" 1000 291 100

# The record's counts: the end block, each "name N".
stress_counts "$t/pass" >"$t/counts"
[ "$(wc -l <"$t/counts")" = 13 ] || fail "counts has $(wc -l <"$t/counts") lines, want 13: $(cat "$t/counts")"
grep -qx 'wake_fit_target 60' "$t/counts" || fail "counts lacks wake_fit_target: $(cat "$t/counts")"
grep -qx 'RT duty-cycle periods 230000' "$t/counts" || fail "counts lacks the RT periods: $(cat "$t/counts")"
! grep -q 'toggles, \|CPUs' "$t/counts" || fail "counts has a progress or header line: $(cat "$t/counts")"

# Bad -f values.
expect_error 1 "^error: -f abc: give a number of decisions of the fit and of the bias$" -- env FLAVOR=debug "$TOP/scripts/stress.sh" -f abc -d 10
make -s -C "$TOP" build/bin/sp-stress >/dev/null || fail "make build/bin/sp-stress failed"
S=$TOP/build/bin/sp-stress
expect_error 2 "^-f abc: give the fit and the bias decisions the run must reach" -- "$S" -f abc
expect_error 2 "^-f -5: give the fit" -- "$S" -f -5
expect_error 2 "^-f 10x: give the fit" -- "$S" -f 10x
expect_error 2 "^-f 5: the decisions are counted in sis_wake, which the base kernel \(-B\) does not have$" -- "$S" -B -f 5
