#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/ab-run.sh and the switches' decision counts, against a fake debugfs
# and /proc/sys: with -f (one kernel, features flipped) every run prints
# sis_wake's counts as wake_NAME; with -s (two kernels, one boot each: the
# base has no sis_wake) it prints none, so that the two sides of
# make base-vs-series have the same metrics. Both forms run with schedstats
# on, so that both sides pay for them, and put the sysctl back after. No
# caller of ab-run.sh gives a warm-up count other than AB_WARMUP.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir -p "$t/dbg/sched" "$t/sys/kernel"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY" >"$t/dbg/sched/features"
: >"$t/dbg/sched/sis_wake"
echo 0 >"$t/sys/kernel/sched_schedstats"
export SP_DEBUGFS=$t/dbg SP_PROCSYS=$t/sys SP_WHERE=0
# The workload stands in for the kernel: it leaves counts in sis_wake (which
# ab-run.sh clears before each run) and reports the sysctl as it ran.
cat >"$t/load" <<EOF
#!/bin/sh
printf 'fit_target 3\nbias_last 2\n' >"$t/dbg/sched/sis_wake"
echo "sp-metric: schedstats \$(cat "$t/sys/kernel/sched_schedstats")"
EOF
chmod +x "$t/load"

for form in "-f UTIL_FITS_CAPACITY" "-s A"; do
	# shellcheck disable=SC2086 # the form is two words
	"$TOP/bench/ab-run.sh" $form -n 2 -w 0 -- "$t/load" >"$t/raw" 2>"$t/err" ||
		fail "ab-run.sh $form failed: $(cat "$t/err")"
	[ "$(grep -c ' schedstats 1$' "$t/raw")" = "$(grep -c ' schedstats ' "$t/raw")" ] &&
		grep -q ' schedstats 1$' "$t/raw" || fail "ab-run.sh $form ran without schedstats: $(cat "$t/raw")"
	[ "$(cat "$t/sys/kernel/sched_schedstats")" = 0 ] || fail "ab-run.sh $form left schedstats on"
	n=$(grep -c ' wake_' "$t/raw" || true)
	case $form in
	-f*)
		[ "$(grep -c '^A wake_fit_target 3$' "$t/raw")" = 2 ] && [ "$(grep -c '^B wake_bias_last 2$' "$t/raw")" = 2 ] ||
			fail "ab-run.sh -f: want wake_fit_target and wake_bias_last in each run: $(cat "$t/raw")"
		;;
	*)
		[ "$n" = 0 ] || fail "ab-run.sh -s printed counts, which the base kernel cannot: $(cat "$t/raw")"
		;;
	esac
	echo "# ab-run.sh $form: $n count lines in $(grep -c " schedstats " "$t/raw") runs, schedstats on in each and put back"
done
# The warm-up is AB_WARMUP of bench/lib.sh wherever ab-run.sh is called
# (make, make bench, make base-vs-series): no caller gives its own count.
own=$(cd "$TOP" && grep -nE 'ab-run\.sh.* -w [0-9]' scripts/*.sh bench/*.sh || true)
[ -z "$own" ] || fail "a warm-up count of its own, not \$AB_WARMUP: $own"
