#!/usr/bin/env bash
# check: quick, budget 60 s
# make jobs' mmtests path (out/jobs/mmtests: config-SET, run-ab.sh from
# bench/mmtests-ab.sh) against a stand-in mmtests checkout and debugfs.
# The configs pass what mmtests 638401e checks of a config, which is only
# that run-mmtests.sh can source it (import_configs): each parses, sources
# under set -eu, and turns the monitors on as config-scheduler-hackbench
# does (perf-time-stat with cpu-migrations and context-switches, mpstat,
# turbostat only when installed), naming only monitors 638401e has
# (monitors/watch-NAME.sh). The README names the sets whose workload
# differs under mmtests (hackbench: 20 fds a group, both-g4 is 160 tasks
# there, 80 here; schbench), and only those. run-ab.sh runs the stand-in
# run-mmtests.sh (which sources the config as mmtests does and notes its
# arguments, monitors and the features file) in the order A1 B1 B2 A2
# (ROUNDS=2: then A3 B3 B4 A4), each run under its own name with its side's
# features and --run-monitor, keeps the features in each run's log,
# restores them, then runs compare-kernels.sh --auto-detect with B1 as the
# baseline. A SIGINT during a run stops run-mmtests.sh's process group (the
# stand-in, like run-mmtests.sh, goes on after its SIGTERM trap; its child
# dies), waits for it, restores the features, runs nothing more and not
# compare-kernels.sh; a stand-in deaf to SIGTERM is killed after
# MM_STOP_SECS. Refused with nothing run: run names work/log already has,
# ROUNDS=0, a config not of make jobs, a directory without mmtests, a
# kernel without the switches.
# A fresh mmtests checkout installs its packages unattended: the stand-in
# run-mmtests.sh calls a stand-in bin/install-depends that does what
# mmtests' does (read in gormanm/mmtests' bin/install-depends): for a
# package not installed, unless AUTO_PACKAGE_INSTALL=yes or
# ~/.mmtests-auto-package-install, it asks "should all packages be
# automatically installed" and reads the answer from stdin, then runs
# apt-get install, with -y and DEBIAN_FRONTEND=noninteractive only when
# automatic; the stand-in apt-get, like apt-get, asks again without -y and
# aborts on no answer. The stand-in is first shown to fail with stdin from
# /dev/null; run-ab.sh, whose run-mmtests.sh has no terminal, must then
# install unattended, in a --build-only run before any feature is written.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
# In mmtests 638401e: monitors/watch-*.sh.
mm_monitors='proc-vmstat perf-time-stat mpstat turbostat vmstat'
JOB_SETS="both-g4 schbench-2 tbench-2 boost pipe" REPS=3 JOBS_OUT=$t/jobs "$TOP/scripts/jobs.sh" 2>"$t/log" ||
	fail "make jobs failed: $(cat "$t/log")"
J=$t/jobs/mmtests
mkdir -p "$t/noturbo" "$t/turbo"
printf '#!/bin/sh\n' >"$t/turbo/turbostat"
chmod +x "$t/turbo/turbostat"
for c in "$J"/config-*; do
	bash -n "$c" || fail "$(basename "$c") does not parse"
	for p in noturbo turbo; do
		# PATH is the directory with or without a turbostat, alone.
		got=$(env -i PATH="$t/$p" "$BASH" -euc ". '$c'; echo \"\$RUN_MONITOR|\$MONITORS_ALWAYS \$MONITORS_GZIP \$MONITORS_WITH_LATENCY|\$MONITOR_PERF_EVENTS\"") ||
			fail "$(basename "$c") does not source under set -eu"
		IFS='|' read -r on mons events <<<"$got"
		[ "$on" = yes ] || fail "$(basename "$c"): RUN_MONITOR=$on"
		for m in $mons; do [[ " $mm_monitors " == *" $m "* ]] || fail "$(basename "$c"): mmtests has no monitor $m"; done
		for m in perf-time-stat mpstat vmstat; do [[ " $mons " == *" $m "* ]] || fail "$(basename "$c"): no monitor $m: $mons"; done
		want=no has=no
		[ $p = noturbo ] || want=yes
		[[ " $mons " != *" turbostat "* ]] || has=yes
		[ $has = $want ] || fail "$(basename "$c"): monitors $mons, with PATH $p"
		[[ ,$events, == *,cpu-migrations,* && ,$events, == *,context-switches,* ]] ||
			fail "$(basename "$c"): MONITOR_PERF_EVENTS=$events"
	done
done
echo "# configs: monitors on (perf-time-stat: $events; turbostat only where installed)"
diffs=$(sed -n '/^Not the same workload under mmtests/,/^$/p' "$t/jobs/README")
grep -q '^- both-g4: .* 160 tasks there, 80 here' <<<"$diffs" || fail "README does not say both-g4 is 160 tasks under mmtests: $diffs"
grep -q '^- schbench-2: ' <<<"$diffs" || fail "README does not name schbench-2 as another workload: $diffs"
! grep -qE '^- (tbench-2|boost|pipe): ' <<<"$diffs" || fail "README names a set mmtests runs as is: $diffs"

# The stand-in mmtests checkout and debugfs.
mm=$t/mmtests dbg=$t/dbg
mkdir -p "$mm/work/log" "$dbg/sched"
features="UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV SIS_UTIL"
echo "$features" >"$dbg/sched/features"
mkdir -p "$mm/bin" "$t/home" "$t/fakebin"
cat >"$mm/run-mmtests.sh" <<'MM'
#!/bin/bash
# Stand-in for mmtests' run-mmtests.sh: its options, import_configs, the
# packages it installs first (bin/install-depends; a test's build fails
# without them), --build-only (installs, notes it in builds, runs
# nothing), the monitor switch, work/log/NAME replaced; then notes what it
# saw. Its SIGTERM/SIGINT trap notes the signal and goes on, as
# begin_shutdown does.
SCRIPTDIR=$(cd "$(dirname "$0")" && pwd)
BUILDONLY=false
while [ $# -gt 1 ]; do
	case $1 in
	-m | --run-monitor) FORCE_RUN_MONITOR=yes ;;
	-n | --no-monitor) FORCE_RUN_MONITOR=no ;;
	-b | --build-only) BUILDONLY=true ;;
	-c | --config) CONFIGS+=("$2"); shift ;;
	*) echo "unknown option $1" >&2; exit 1 ;;
	esac
	shift
done
RUNNAME=$1
for c in "${CONFIGS[@]}"; do source "$c"; done
"$SCRIPTDIR/bin/install-depends" autoconf gcc make numactl perl-Time-HiRes || { echo "ERROR: Installation step failed" >&2; exit 1; }
if $BUILDONLY; then
	echo "$RUNNAME build features=$(cat "$SP_DEBUGFS/sched/features")" >>builds
	exit 0
fi
[ -z "$FORCE_RUN_MONITOR" ] || RUN_MONITOR=$FORCE_RUN_MONITOR
rm -rf "work/log/$RUNNAME"
mkdir -p "work/log/$RUNNAME"
echo "$RUNNAME monitor=$RUN_MONITOR gzip=$MONITORS_GZIP events=$MONITOR_PERF_EVENTS features=$(cat "$SP_DEBUGFS/sched/features")" >>calls
if [ "$RUNNAME" = "$HANG" ]; then
	if [ -n "$DEAF" ]; then trap '' TERM INT; else trap 'echo TERM >signal' TERM INT; fi
	sleep 300 &
	echo $! >child
	wait
	echo "went on after the signal" >>calls
fi
exit 0
MM
# install-depends as mmtests has it (above), on Debian, as root; installed
# packages are the lines of $PKGS.
cat >"$mm/bin/install-depends" <<'ID'
#!/bin/bash
rc=0
for p; do
	grep -qxF "$p" "$PKGS" 2>/dev/null && continue
	if [ "$AUTO_PACKAGE_INSTALL" != yes ] && [ ! -e "$HOME/.mmtests-auto-package-install" ]; then
		if [ ! -e "$HOME/.mmtests-never-auto-package-install" ]; then
			echo -n "MMTests needs to install $p, should all packages be automatically installed (yes/no/never)? "
			read -r answer
			case $answer in
			yes | y) : >"$HOME/.mmtests-auto-package-install" ;;
			never) : >"$HOME/.mmtests-never-auto-package-install" ;;
			esac
		fi
	fi
	yes= front=
	if [ "$AUTO_PACKAGE_INSTALL" = yes ] || [ -e "$HOME/.mmtests-auto-package-install" ]; then
		yes=-y front=noninteractive
	fi
	if ! DEBIAN_FRONTEND=$front apt-get install $yes "$p"; then
		echo "WARNING: Failed to cleanly install package $p for distro debian"
		rc=255
	fi
	echo "Installed $p"
done
exit $rc
ID
# apt-get install: asks without -y, and, as apt-get, aborts on no answer.
cat >"$t/fakebin/apt-get" <<'APT'
#!/bin/bash
echo "DEBIAN_FRONTEND=$DEBIAN_FRONTEND apt-get $*" >>"$APT_LOG"
[ "$1" = install ] || exit 0
shift
y=
[ "$1" != -y ] || { y=1; shift; }
if [ -z "$y" ]; then
	echo -n "Do you want to continue? [Y/n] "
	read -r a || { echo "Abort."; exit 1; }
	case $a in "" | y | Y) ;; *) echo "Abort."; exit 1 ;; esac
fi
echo "$1" >>"$PKGS"
APT
printf '#!/bin/bash\necho "$PWD $*" >>"$(dirname "$0")/compare-args"\n' >"$mm/compare-kernels.sh"
chmod +x "$mm/run-mmtests.sh" "$mm/compare-kernels.sh" "$mm/bin/install-depends" "$t/fakebin/apt-get"
R=$J/run-ab.sh C=$J/config-both-g4
unset AUTO_PACKAGE_INSTALL
export SP_DEBUGFS=$dbg HOME=$t/home PKGS=$t/installed APT_LOG=$t/apt.log PATH=$t/fakebin:$PATH

# The stand-in asks, and fails, with stdin from /dev/null, as mmtests does.
out=$(cd "$mm" && ./run-mmtests.sh --run-monitor --config "$C" probe </dev/null 2>&1) &&
	fail "the stand-in mmtests installed with stdin from /dev/null: $out"
grep -q "should all packages be automatically installed" <<<"$out" && grep -q "Abort\." <<<"$out" ||
	fail "the stand-in mmtests did not ask: $out"
[ ! -s "$PKGS" ] && [ ! -e "$mm/calls" ] || fail "the stand-in mmtests went on: $(cat "$PKGS" "$mm/calls" 2>/dev/null)"
rm -rf "$mm/work/log/probe" "$APT_LOG"
echo "# stand-in mmtests with stdin from /dev/null: asks, apt-get aborts, fails"

"$R" "$C" "$mm" >"$t/ab.out" 2>"$t/ab.log" || fail "run-ab.sh failed: $(cat "$t/ab.log")"
order=$(cut -d' ' -f1 "$mm/calls" | tr '\n' ' ')
[ "$order" = "both-g4-A1 both-g4-B1 both-g4-B2 both-g4-A2 " ] || fail "runs in the order $order, not A1 B1 B2 A2"
# Unattended: installed by the --build-only run, first, with the features
# as found, apt-get -y and no question.
[ "$(cat "$mm/builds" 2>/dev/null)" = "both-g4-build build features=$features" ] ||
	fail "no --build-only run before the features were written: $(cat "$mm/builds" 2>/dev/null)"
[ "$(wc -l <"$PKGS")" = 5 ] || fail "the packages were not installed: $(cat "$PKGS" 2>/dev/null)"
! grep -v -- '^DEBIAN_FRONTEND=noninteractive apt-get install -y ' "$APT_LOG" ||
	fail "apt-get ran without -y and DEBIAN_FRONTEND=noninteractive (above)"
! grep -q "automatically installed" "$t/ab.out" "$t/ab.log" || fail "mmtests asked: $(cat "$t/ab.out")"
echo "# fresh mmtests: installed unattended (apt-get -y) by run-mmtests.sh --build-only, before the runs"
while read -r line; do
	name=${line%% *} during=features=${line##*features=} mon=${line#* }
	mon=${mon%% *}
	want="features=UTIL_FITS_CAPACITY SELECT_BIAS_PREV SIS_UTIL"
	[[ $name == *-A? ]] || want="features=NO_UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV SIS_UTIL"
	[ "${during% }" = "$want" ] || fail "$name ran with $during, not $want"
	[ "$mon" = monitor=yes ] || fail "$name ran with $mon"
	cmp -s <(echo "${want#features=}") "$mm/work/log/$name/sched-features" || fail "$name's features not kept"
done <"$mm/calls"
grep -q 'events=cpu-migrations,context-switches' "$mm/calls" || fail "perf-time-stat events: $(cat "$mm/calls")"
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "features not restored: $(cat "$dbg/sched/features")"
[ "$(cat "$mm/compare-args")" = "$mm/work/log --auto-detect --baseline both-g4-B1 --compare both-g4-B2 --compare both-g4-A1 --compare both-g4-A2" ] ||
	fail "compare-kernels.sh: $(cat "$mm/compare-args" 2>/dev/null)"
echo "# run-ab.sh: A1 B1 B2 A2 with their features and monitors, restored, compare-kernels.sh --auto-detect --baseline both-g4-B1"
rm -rf "$mm/work/log"/* "$mm/calls" "$mm/compare-args" "$mm/builds"
ROUNDS=2 "$R" "$C" "$mm" >/dev/null 2>"$t/ab.log" || fail "ROUNDS=2: run-ab.sh failed: $(cat "$t/ab.log")"
order=$(cut -d' ' -f1 "$mm/calls" | sed 's/both-g4-//' | tr '\n' ' ')
[ "$order" = "A1 B1 B2 A2 A3 B3 B4 A4 " ] || fail "ROUNDS=2: runs in the order $order"
grep -q -- '--baseline both-g4-B1 --compare both-g4-B2 --compare both-g4-B3 --compare both-g4-B4 --compare both-g4-A1 ' "$mm/compare-args" ||
	fail "ROUNDS=2: compare-kernels.sh: $(cat "$mm/compare-args")"

# gone PID: PID has ended (a zombie, if nothing has reaped it yet, has too).
gone() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 0
	[ "${st%% *}" = Z ]
}
# SIGINT during B1: the stand-in's group gets SIGTERM; run-ab.sh waits for
# it, restores the features and dies of SIGINT. Then one deaf to SIGTERM.
for deaf in "" 1; do
	rm -rf "$mm/work/log"/* "$mm/calls" "$mm/compare-args" "$mm/child" "$mm/signal"
	# A background job starts with SIGINT ignored, which a shell cannot undo.
	HANG=both-g4-B1 DEAF=$deaf MM_STOP_SECS=1 env --default-signal=INT "$R" "$C" "$mm" >"$t/int.out" 2>&1 &
	job=$!
	wait_until 20 "$job" test -s "$mm/child" || fail "run B1 never started: $(cat "$t/int.out")"
	kill -INT "$job"
	rc=0
	wait "$job" || rc=$?
	what="SIGINT${deaf:+ (deaf to SIGTERM)}"
	[ "$rc" = 130 ] || fail "$what: run-ab.sh exited $rc: $(cat "$t/int.out")"
	[ -n "$deaf" ] || [ "$(cat "$mm/signal" 2>/dev/null)" = TERM ] || fail "$what: run-mmtests.sh got no SIGTERM"
	wait_until 5 - gone "$(cat "$mm/child")" || fail "$what: run-mmtests.sh's child is still running"
	[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "$what: features not restored: $(cat "$dbg/sched/features")"
	[ "$(grep -c '^both-g4-' "$mm/calls")" = 2 ] || fail "$what: runs went on: $(cat "$mm/calls")"
	[ ! -e "$mm/compare-args" ] || fail "$what: compare-kernels.sh ran"
	echo "# $what in B1: run-mmtests.sh's group stopped, features restored, nothing more run"
done

: >"$mm/calls"
rm -rf "$mm/work/log"/* "$mm/builds"
mkdir -p "$mm/work/log/both-g4-B2"
expect_error 1 "work/log/both-g4-B2 exists, which run-mmtests.sh would replace: move it away" -- "$R" "$C" "$mm"
rm -rf "$mm/work/log"/*
expect_error 1 "ROUNDS=0: want a positive whole number" -- env ROUNDS=0 "$R" "$C" "$mm"
echo 'export MMTESTS=tbench' >"$t/plain-config"
expect_error 1 "has no SP_SET, SP_SIDE_A and SP_SIDE_B" -- "$R" "$t/plain-config" "$mm"
expect_error 1 "is not an mmtests checkout" -- "$R" "$C" "$t"
echo "NO_SIS_UTIL" >"$dbg/sched/features"
expect_error 1 "unknown sched feature 'UTIL_FITS_CAPACITY' \(a switch of the series needs a kernel of the series: make deb builds one\)" -- "$R" "$C" "$mm"
[ ! -s "$mm/calls" ] && [ ! -e "$mm/builds" ] && [ -z "$(ls "$mm/work/log")" ] ||
	fail "a refused run-ab.sh ran mmtests: $(cat "$mm/calls" "$mm/builds" 2>/dev/null)"
