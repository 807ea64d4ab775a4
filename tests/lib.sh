# Helpers for the harness tests; sourced. A test exits 0 (pass), 1 (fail) or 4 (skip).
# shellcheck shell=bash
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
set -u

fail() {
	echo "# FAIL: $*" >&2
	exit 1
}

# expect_error RC_WANTED PATTERN -- CMD...: CMD must exit RC_WANTED (or any
# non-zero when RC_WANTED is "any") and its output must match PATTERN.
expect_error() {
	local want=$1 pat=$2 out rc=0
	shift 3
	out=$("$@" 2>&1) || rc=$?
	if [ "$want" = any ]; then
		[ "$rc" -ne 0 ] || fail "expected a failure from '$*', got exit 0: $out"
	else
		[ "$rc" = "$want" ] || fail "expected exit $want from '$*', got $rc: $out"
	fi
	echo "$out" | grep -qE -- "$pat" || fail "output of '$*' lacks /$pat/: $out"
	echo "# $(echo "$out" | grep -E -- "$pat" | head -n1)"
}

# A private, empty cache, removed on exit; nothing may be left in it but dirs.
private_cache() {
	SCHED_PLACEMENT_CACHE=$(mktemp -d)
	export SCHED_PLACEMENT_CACHE
	cleanup_on_exit 'rm -rf "$SCHED_PLACEMENT_CACHE"'
}
assert_cache_clean() {
	local left
	left=$(find "$SCHED_PLACEMENT_CACHE" -mindepth 1 -maxdepth 1 ! -name apt)
	[ -z "$left" ] || fail "a failed fetch left this in the cache: $left"
}

# wait_until SECONDS PID CMD...: run CMD every 0.25 s until it succeeds
# (return 0), PID has exited (return 2; PID "-" watches no process) or
# SECONDS have passed (return 1). For tests that act on an event (a file
# appears, a line is printed, QEMU is gone) instead of after a fixed sleep.
wait_until() {
	local end=$((SECONDS + $1)) pid=$2
	shift 2
	while ! "$@"; do
		if [ "$pid" != - ] && ! kill -0 "$pid" 2>/dev/null; then
			"$@" && return 0
			return 2
		fi
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.25
	done
}

# fake_dpkg_query DIR: write DIR/dpkg-query, a stand-in that reports every
# package it is asked about as installed (version 1.0; virtme-ng $VNG_V)
# except those named in $MISSING, read when it runs. Point DPKG_QUERY at it:
# the answer then does not depend on what this host has installed.
fake_dpkg_query() {
	cat >"$1/dpkg-query" <<'SH'
#!/bin/sh
shift 3
for p; do
	case " $MISSING " in *" $p "*) continue ;; esac
	v=1.0; [ "$p" = virtme-ng ] && v=${VNG_V:-1.41-1}
	echo "$p $v install ok installed"
done
SH
	chmod +x "$1/dpkg-query"
}

# fake_host DIR [SWITCH...]: the kernel's interface that HOST=1 reads and
# writes, as fakes under DIR, and SP_SYSFS, SP_DEBUGFS, SP_PROCSYS and
# SP_CPUINFO exported to point at them: two CPUs (AMD family 25) with one
# LLC, no SMT, one node, one MC domain; schedstats off in a fake sysctl
# (ab-run.sh turns them on for the runs); and a features file with the
# series' switches at their defaults but each SWITCH (off by default) on.
fake_host() {
	local d=$1 c s sw
	shift
	for c in 0 1; do
		mkdir -p "$d/sys/devices/system/cpu/cpu$c/cache/index3" "$d/sys/devices/system/cpu/cpu$c/topology"
		echo 0-1 >"$d/sys/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list"
		echo "$c" >"$d/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"
	done
	mkdir -p "$d/sys/devices/system/node/node0" "$d/dbg/sched/domains/cpu0/domain0" "$d/procsys/kernel"
	echo 0-1 >"$d/sys/devices/system/node/node0/cpulist"
	echo MC >"$d/dbg/sched/domains/cpu0/domain0/name"
	printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nprocessor\t: 1\n' >"$d/cpuinfo"
	echo 0 >"$d/procsys/kernel/sched_schedstats"
	sw=" $(series_switches -d | xargs) "
	for s; do
		[[ $sw == *" NO_$s "* ]] || fail "fake_host: $s is not a switch of the series that is off by default"
		sw=${sw/ NO_$s / $s }
	done
	echo "GENTLE_FAIR_SLEEPERS NO_HRTICK${sw}SIS_UTIL" >"$d/dbg/sched/features"
	export SP_SYSFS=$d/sys SP_DEBUGFS=$d/dbg SP_PROCSYS=$d/procsys SP_CPUINFO=$d/cpuinfo
}

# The idle-host guard of the alone stages (tests/kselftest.sh). The TCG
# guest runs on one host thread (vm.sh: tcg,thread=single), and whatever else
# the host runs changes its timing, which changes what the scheduler inside
# does. host_mark prints the host's CPU ticks, busy (steal included, as
# /proc/stat counts it) and in all, those of the reaped children of the
# top-level shell ($$, also from a command substitution), and the steal
# ticks; run it before and after a command run in the foreground, and
# host_others_pct MARK0 MARK1 prints the share of the host's CPU time, in
# percent of all its CPUs, that went to anything on this host but that
# command: other processes, interrupts. host_steal_pct prints the steal
# share: when this machine is itself a guest, the time its hypervisor gave
# to others, which nothing run here causes or can stop. It is left out of
# host_others_pct: the command's own ticks can include stolen time, and a
# guard on it would fail at the hypervisor's whim.
host_mark() {
	local ticks kids
	# user nice system idle iowait irq softirq steal; guest is in user
	ticks=$(awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $9 }' /proc/stat)
	# fields after "pid (comm) ": 14 and 15 are cutime and cstime
	kids=$(sed 's/.*) //' "/proc/$$/stat" | awk '{ print $14 + $15 }')
	set -- $ticks
	echo "$1 $2 $kids $3"
}
host_others_pct() {
	local b0 t0 k0 s0 b1 t1 k1 s1
	read -r b0 t0 k0 s0 <<<"$1"
	read -r b1 t1 k1 s1 <<<"$2"
	awk -v o=$(((b1 - b0) - (s1 - s0) - (k1 - k0))) -v t=$((t1 - t0)) \
		'BEGIN { p = t > 0 ? 100 * o / t : 0; printf "%.1f\n", p < 0 ? 0 : p }'
}
host_steal_pct() {
	local t0 s0 t1 s1
	read -r _ t0 _ s0 <<<"$1"
	read -r _ t1 _ s1 <<<"$2"
	awk -v s=$((s1 - s0)) -v t=$((t1 - t0)) \
		'BEGIN { printf "%.1f\n", (t > 0 ? 100 * s / t : 0) }'
}
