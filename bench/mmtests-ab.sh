#!/usr/bin/env bash
# One A/B set under mmtests, from an mmtests checkout on a machine booted into
# the patched kernel, as root: make jobs writes it as out/jobs/mmtests/run-ab.sh
# beside the configs.
#
#   [ROUNDS=1] [MM_STOP_SECS=30] run-ab.sh CONFIG [MMTESTS_DIR]
#
# CONFIG is a config-SET of make jobs (SP_SET, SP_SIDE_A and SP_SIDE_B name
# the set and the features file words of its two sides; its monitors are on).
# First an unattended --build-only run (below); then ROUNDS times, the
# sides in the order A B B A, so that a drift over the
# session hits both sides alike, under their own run names (SET-A1 SET-B1
# SET-B2 SET-A2, then SET-A3 SET-B3 SET-B4 SET-A4, ...): the side's words are
# written to the features file and read back, then
# ./run-mmtests.sh --run-monitor --config CONFIG NAME runs, and the features
# file is kept in work/log/NAME/sched-features (after the run: mmtests
# empties that directory when it starts). A run name that work/log already
# has is refused before anything runs: mmtests would replace it. Then the
# features file is restored, and compare-kernels.sh --auto-detect (its
# significance marks) compares every run with SET-B1: the other B runs
# first, which show the run-to-run noise, then the A runs.
#
# mmtests installs what it needs with bin/install-depends, which (unless
# AUTO_PACKAGE_INSTALL=yes, or ~/.mmtests-auto-package-install exists)
# asks on stdin "should all packages be automatically installed" and then
# runs apt-get install without -y. run-mmtests.sh runs here in the
# background, stdin from /dev/null: the question reads nothing, apt-get
# aborts, and the first run of a fresh mmtests fails. So every
# run-mmtests.sh here runs with AUTO_PACKAGE_INSTALL=yes (apt-get -y,
# DEBIAN_FRONTEND=noninteractive), and a first one with --build-only
# (run name SET-build, no monitors) installs the packages and builds the
# tests before the features are written and the first measured run starts.
#
# run-mmtests.sh runs in a process group of its own (bench/lib.sh
# run_group): its SIGINT trap kills the test it is running and goes on, and
# the monitors it starts are its children. On SIGINT (Ctrl-C), SIGTERM or
# SIGHUP, run-ab.sh sends SIGTERM to that group, waits for run-mmtests.sh
# (SIGKILL to what is left after MM_STOP_SECS, default 30), restores the
# features file and dies of the signal; compare-kernels.sh does not run.
# lib.sh is bench/lib.sh, copied beside it (features file save, restore and
# write). SP_DEBUGFS stands for /sys/kernel/debug (the tests give a fake one).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: [ROUNDS=1] run-ab.sh CONFIG [MMTESTS_DIR]" >&2; exit 2; }
cfg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mm=${2:-.}
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
F=$SCHED_FEATURES
err() { echo "error: $*" >&2; exit 1; }
[ -r "$cfg" ] || err "no config at $1"
[ -x "$mm/run-mmtests.sh" ] || err "$mm is not an mmtests checkout (no run-mmtests.sh); give its path"
# shellcheck disable=SC1090
eval "$(. "$cfg" && printf 'set=%q a=%q b=%q\n' "${SP_SET:-}" "${SP_SIDE_A:-}" "${SP_SIDE_B:-}")"
[ -n "$set" ] && [ -n "$a" ] && [ -n "$b" ] ||
	err "$1 has no SP_SET, SP_SIDE_A and SP_SIDE_B; use a config of make jobs"
rounds=${ROUNDS:-1}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || err "ROUNDS=$rounds: want a positive whole number of A B B A rounds"
stop_secs=${MM_STOP_SECS:-30}
[[ $stop_secs =~ ^[0-9]+$ ]] || err "MM_STOP_SECS=$stop_secs: want whole seconds"
# shellcheck disable=SC2086 # the sides are lists of words
features_preflight run-ab.sh "sudo ./run-ab.sh CONFIG MMTESTS_DIR" $a $b || exit 1
runs=()
for ((r = 1; r <= rounds; r++)); do
	runs+=("A$((2 * r - 1))" "B$((2 * r - 1))" "B$((2 * r))" "A$((2 * r))")
done
for n in "${runs[@]}"; do
	[ ! -e "$mm/work/log/$set-$n" ] ||
		err "$mm/work/log/$set-$n exists, which run-mmtests.sh would replace: move it away"
done
cd "$mm"
save_features
cleanup_on_exit 'stop_group "$stop_secs"; restore_features'
# mm ARGS...: run-mmtests.sh ARGS, unattended (above).
mm() { run_group env AUTO_PACKAGE_INSTALL=yes ./run-mmtests.sh "$@"; }
echo "run-ab: $set-build: install and build (run-mmtests.sh --build-only)" >&2
mm --build-only --no-monitor --config "$cfg" "$set-build" ||
	err "run-mmtests.sh --build-only failed for $set-build (its output above): the packages or the test's build"
for n in "${runs[@]}"; do
	words=$a
	[ "${n:0:1}" = A ] || words=$b
	for w in $words; do
		feature_write "$w" || err "writing $w to $F failed"
	done
	features_show "$words" || err "$F does not show $words after writing them: $(cat "$F")"
	echo "run-ab: $set-$n with $words" >&2
	mm --run-monitor --config "$cfg" "$set-$n" || err "run-mmtests.sh failed for $set-$n"
	cp "$F" "work/log/$set-$n/sched-features"
done
restore_features
compare=()
for side in B A; do
	for n in "${runs[@]}"; do
		if [ "${n:0:1}" = "$side" ] && [ "$n" != B1 ]; then compare+=(--compare "$set-$n"); fi
	done
done
cd work/log && ../../compare-kernels.sh --auto-detect --baseline "$set-B1" "${compare[@]}"
