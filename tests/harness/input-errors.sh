#!/usr/bin/env bash
# check: quick, budget 60 s
# Bad input to make and make bench is refused on the host before anything is
# built or booted, with a message that names the fix: REPS, PRESET, SETS
# and FEATURE (this last against build/linux's features.h, here a fake tree
# under BUILD); make's WORKLOAD set but empty (not the default), and a
# WORKLOAD whose command is not found here (the guest shares this root
# filesystem), through make's check (which make runs before it builds) and
# series-ab.sh's set ab, as the guest and HOST=1 check it; stress.sh's
# preset, and its -b without FLAVOR=kcsan.
# Nothing is left in results/.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
export SP_RESULTS=$t/results
none() { # CASE: nothing was written
	[ -z "$(ls -A "$t/results" 2>/dev/null)" ] || fail "$1 left $(ls "$t/results")"
}
M=$TOP/scripts/main.sh B=$TOP/scripts/bench.sh
# stress.sh -b, the KCSAN base reference, on another flavour.
expect_error 1 "-b, the base reference, is for the KCSAN kernel: FLAVOR=kcsan" -- env FLAVOR=debug "$TOP/scripts/stress.sh" -b -d 10
# stress.sh's preset, before the kernel is built.
expect_error 2 "unknown preset 'zen9'; known presets: .*zen3" -- "$TOP/scripts/stress.sh" -p zen9 -d 10
none "stress.sh -p zen9"
expect_error 1 "REPS=abc: want a positive whole number of runs per side" -- env REPS=abc "$M"
none "make REPS=abc"
expect_error 1 "REPS=0: want a positive whole number" -- env REPS=0 "$B" --check
expect_error 2 "unknown preset 'zen9'; known presets: .*zen3" -- env PRESET=zen9 "$M"
none "make PRESET=zen9"
# WORKLOAD= (set, empty) is not the default; a command not found is named.
expect_error 1 "WORKLOAD is empty: want a command to run on both sides" -- env WORKLOAD= "$M" --check
expect_error 1 "WORKLOAD is empty" -- env WORKLOAD=' ' "$M" --check
none "make WORKLOAD="
nope=sp-no-such-workload
! command -v "$nope" >/dev/null || fail "$nope exists here"
expect_error 2 "workload command '$nope' not found on this machine.*: install it, or give WORKLOAD a command on PATH" -- env WORKLOAD="$nope -l 5" "$M" --check
none "make WORKLOAD=$nope"
expect_error 2 "workload command '$nope' not found" -- env SP_INLINE_FEATURE=SIS_UTIL SP_INLINE_WORKLOAD="$nope -l 5" "$TOP/bench/series-ab.sh" -d ab
expect_error 2 "unknown preset 'zen9'" -- env PRESET=zen9 "$B" --check
expect_error 2 "unknown set 'nope'" -- env SETS='both-g4 nope' "$B" --check
expect_error 2 "unknown set 'nope'" -- env SETS=nope "$B"
none "make bench SETS=nope"
env SETS='both-g4 limit-g4' REPS=3 "$B" --check || fail "make bench's check refused good input"
# FEATURE, against the tree's features.h.
mkdir -p "$t/build/linux/kernel/sched"
printf 'SCHED_FEAT(TTWU_QUEUE, true)\nSCHED_FEAT(UTIL_FITS_CAPACITY, false)\n' >"$t/build/linux/kernel/sched/features.h"
feat() { (BUILD=$t/build; need_tree_features "$@"); }
feat UTIL_FITS_CAPACITY NO_TTWU_QUEUE || fail "known features refused"
expect_error 1 "unknown sched feature 'BOGUS_SWITCH': build/linux/kernel/sched/features.h has TTWU_QUEUE UTIL_FITS_CAPACITY" -- feat UTIL_FITS_CAPACITY BOGUS_SWITCH
# ab-run.sh, as the guest runs it: -n and -w are numbers.
expect_error 2 "-n abc: want a positive whole number" -- "$TOP/bench/ab-run.sh" -f SIS_UTIL -n abc -- true
expect_error 2 "-w x: want a whole number" -- "$TOP/bench/ab-run.sh" -f SIS_UTIL -w x -- true
