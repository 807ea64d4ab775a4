# make stress's judgement of sp-stress's counts, and the record's counts
# file; for scripts/stress.sh, and tests/harness/stress-counts.sh.
# shellcheck shell=bash

# stress_count OUT NAME: N of the last "# NAME N" line of OUT, sp-stress's
# output; empty when there is none.
stress_count() {
	sed -n "s/^# $2 \([0-9][0-9]*\)$/\1/p" "$1" | tail -n 1
}

# stress_wake_sum OUT PREFIX: the sum of the run's decisions named
# PREFIX* ("# wake_PREFIX... N" lines: fit_, bias_); empty when there is
# no such line.
stress_wake_sum() {
	sed -n "s/^# wake_$2[a-z_]* \([0-9][0-9]*\)$/\1/p" "$1" |
		awk '{ s += $1; n++ } END { if (n) print s }'
}

# stress_judge OUT MIN_TOGGLES MIN_HOTPLUG MIN_FITS: 0 when OUT reaches
# each minimum: switch toggles, hotplug cycles, and both the fit's
# decisions (wake_fit_*) and the bias's (wake_bias_*); else 1, each
# shortfall said on stderr with the counts. A count that is missing from
# OUT counts as none.
stress_judge() {
	local out=$1 min_toggles=$2 min_hotplug=$3 min_fits=$4 fail=0 toggles cycles fits bias
	toggles=$(stress_count "$out" 'switch toggles')
	cycles=$(stress_count "$out" 'hotplug cycles')
	fits=$(stress_wake_sum "$out" fit_)
	bias=$(stress_wake_sum "$out" bias_)
	if [ "${toggles:-0}" -lt "$min_toggles" ]; then
		echo "error: ${toggles:-no} switch toggles, want at least $min_toggles" >&2
		fail=1
	fi
	if [ "${cycles:-0}" -lt "$min_hotplug" ]; then
		echo "error: ${cycles:-no} hotplug cycles, want at least $min_hotplug" >&2
		fail=1
	fi
	if [ "${fits:-0}" -lt "$min_fits" ] || [ "${bias:-0}" -lt "$min_fits" ]; then
		local why=''
		[ -n "$fits$bias" ] || why=' (no wake_ counts in the output)'
		echo "error: ${fits:-0} decisions of the fit (wake_fit_*) and ${bias:-0} of the bias (wake_bias_*), want at least $min_fits of each$why" >&2
		fail=1
	fi
	return "$fail"
}

# stress_counts OUT: the run's counts, one "name N" a line: the block of
# "# name N" lines sp-stress prints at its end (from "# load time" on),
# each kind of churn and each decision of sis_wake.
stress_counts() {
	sed -n '/^# load time /,$p' "$1" | sed -n 's/^# \([^:]* [0-9][0-9]*\)$/\1/p'
}
