#!/usr/bin/env bash
# check: quick, budget 60 s
# make HOST=1 and make bench HOST=1 check their input and this machine
# before they install or build anything: a run refused (not root; a stock
# kernel, without the series' switches; an unknown FEATURE or set) calls no
# package tool and no compiler, writes no results directory and leaves the
# features file as it was. The package tools (dpkg-query, apt-get, dnf,
# zypper, pacman, sudo) and gcc are stand-ins on PATH that record their
# calls, and make runs with -B, so that a build, once reached, calls gcc;
# the kernel's files are fakes (SP_DEBUGFS). Then make -n shows the order
# of a run that passes: the check, then deps, then the builds.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
private_cache
mkdir "$t/fake" "$t/dbg"
for c in dpkg-query apt-get dnf zypper pacman sudo gcc cc; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$c" "$t" >"$t/fake/$c"
	chmod +x "$t/fake/$c"
done
export PATH="$t/fake:$PATH" SP_DEBUGFS=$t/dbg SP_RESULTS=$t/results SP_EUID=0
mkdir -p "$t/dbg/sched"
# A stock kernel's features: none of the series' switches.
stock="GENTLE_FAIR_SLEEPERS START_DEBIT NO_HRTICK TTWU_QUEUE SIS_UTIL"
series="$stock $(series_switches -d | xargs)"
hmake() { make --no-print-directory -B -C "$TOP" HOST=1 "$@"; }
nothing() { # CASE FEATURES: nothing was called, built or written
	[ ! -e "$t/calls" ] || fail "$1 called: $(cat "$t/calls")"
	[ -z "$(ls -A "$t/results" 2>/dev/null)" ] || fail "$1 left $(ls "$t/results")"
	[ "$(cat "$t/dbg/sched/features")" = "$2" ] || fail "$1 changed the features file: $(cat "$t/dbg/sched/features")"
}

echo "$series" >"$t/dbg/sched/features"
expect_error 2 "run it as root" -- hmake SP_EUID=1000
nothing "make HOST=1, not root" "$series"
expect_error 2 "run it as root" -- hmake bench SP_EUID=1000 SETS=pipe
nothing "make bench HOST=1, not root" "$series"
expect_error 2 "unknown sched feature 'BOGUS'" -- hmake FEATURE=BOGUS
nothing "make HOST=1 FEATURE=BOGUS" "$series"
expect_error 2 "unknown set 'nosuch'" -- hmake bench SETS='pipe nosuch'
nothing "make bench HOST=1 SETS=nosuch" "$series"

echo "$stock" >"$t/dbg/sched/features"
expect_error 2 "lacks the series' switches: .*SIS_SMALL_LLC" -- hmake
nothing "make HOST=1 on a stock kernel" "$stock"
expect_error 2 "lacks the series' switches" -- hmake bench SETS=pipe
nothing "make bench HOST=1 on a stock kernel" "$stock"

# A run that passes: the check first, then deps, then the builds; make -n
# prints the recipes in the order it would run them.
for goal in "" bench; do
	out=$(hmake -n $goal 2>&1) || fail "make -n HOST=1 $goal: $out"
	echo "$out" | head -n1 | grep -q -- 'scripts/\(main\|bench\)\.sh --check$' ||
		fail "make HOST=1 $goal does not check first: $out"
	d=$(echo "$out" | grep -n 'scripts/deps\.sh' | cut -d: -f1)
	g=$(echo "$out" | grep -n '^gcc ' | head -n1 | cut -d: -f1)
	[ -n "$d" ] && [ -n "$g" ] && [ "$d" -lt "$g" ] || fail "make HOST=1 $goal: deps is not before the builds: $out"
done
echo "# make -n HOST=1 bench: $(hmake -n bench SETS=pipe | head -n2 | paste -sd';')"
