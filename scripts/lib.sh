# Shared helpers for the host-side glue. Sourced, never run.
# shellcheck shell=bash
#
# Every script sources this core: paths, the committer identity, bench/lib.sh,
# die, note, sha256_of. The other helpers are in scripts/lib/, one file per
# concern, which a script sources after this one when it uses them:
#   base.sh     base_get, base_origin, series_entries (series/base, series/series)
#   apt.sh      dpkg_installed, private_apt
#   kbuild.sh   kbuild_make, base_worktree, drop_worktree, base_kernel
#   mail.sh     undeliverable
#   host.sh     host_preflight, host_topology; what host mode needs per distribution family
#   results.sh  results_begin, results_commit
#   report.sh   report_head, report_machine: the head of the report.txt of make, make bench
#               and make base-vs-series
#   vm-run.sh   vm_run
#   kunit.sh    kunit_suite_tap

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${SCHED_PLACEMENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sched-placement}
BUILD=${BUILD:-$TOP/build}

# Fixed identity and dates for every commit the glue makes, so that the same
# inputs always give the same tree and the same commit hashes.
export GIT_COMMITTER_NAME="sched-placement"
export GIT_COMMITTER_EMAIL="sched-placement@localhost"
export GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"

# cleanup_on_exit CMD (bench/lib.sh): CMD runs on exit and on INT, TERM, HUP.
# shellcheck source=../bench/lib.sh
. "$TOP/bench/lib.sh"

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo ">> $*" >&2
}

# pin_get FILE KEY: KEY's value in FILE, a pin of KEY=VALUE lines (series/base,
# ledger/qemu-source), else stop naming the file and the fix.
pin_get() {
	local v
	v=$(sed -n "s/^$2=//p" "$1")
	[ -n "$v" ] || die "$1 has no $2; restore it from git"
	printf '%s\n' "$v"
}

# need_reps N: N runs per side is a positive whole number, else stop
# naming the fix. Checked on the host before anything is built or booted.
need_reps() {
	[[ $1 =~ ^[1-9][0-9]*$ ]] || die "REPS=$1: want a positive whole number of runs per side (e.g. REPS=$AB_REPS)"
}

# The guest's clock under TCG (ICOUNT, vm.sh): off, the host's wall
# clock, or a shift N, guest time made of instructions (QEMU -icount
# shift=N,sleep=off). The A/Bs of make and make bench run on instructions,
# shift 0: on make's A/B it gave the wall clock's effects with time's CV
# at 2-5% against 6-34%, a host build beside it or not, and shift 0 is
# the fastest guest CPU icount offers, nearest the hardware's work per
# tick (docs/results/2026-12-07-icount-zen3). Every other boot (the
# tests' guests, make stress, the kselftests) stays on the wall clock,
# where the selftests' bars were measured: under icount hackbench_test's
# ratio rose from 0.45 to 0.63 and failed its bar in 4 of 10 runs, and a
# guest waiting on the host's I/O jumps in time, which the tests' own
# limits count (docs/results/2026-12-07-hackbench-test-clocks-zen3).
AB_ICOUNT_DEFAULT=0
ICOUNT_DEFAULT=off

# need_icount VALUE: VALUE is off or a whole shift 0 to 10, else stop naming
# the fix. auto is refused: QEMU then tunes the shift to the host's speed,
# which is the dependence on the host that icount is here to remove.
need_icount() {
	[[ $1 =~ ^(off|[0-9]|10)$ ]] ||
		die "ICOUNT=$1: want off (the host's clock) or a shift 0 to 10 (guest time = instructions x 2^shift ns), e.g. ICOUNT=0"
}

# need_ledger: LEDGER (the cache ledger, scripts/vm.sh) is 0 or 1, and on
# with a clock of instructions, else stop naming the fix.
need_ledger() {
	case ${LEDGER:-0} in 0 | 1) ;; *) die "LEDGER=$LEDGER: want 1 (the cache ledger on) or 0 (off)" ;; esac
	[ "${LEDGER:-0}" = 0 ] || [ "${ICOUNT:-}" != off ] ||
		die "LEDGER=1 with ICOUNT=off: the ledger's cost would move the guest's clock; leave ICOUNT unset (shift 0) or give a shift"
}

# The presets, scripts/presets, read here only: a topology a line, "name
# sockets dies-per-socket cores-per-die threads-per-core cpu", and the
# defaults, "@ROLE name". SP_PRESETS stands for the file (the tests).
PRESETS=${SP_PRESETS:-$TOP/scripts/presets}
# preset_default ROLE: the preset of @ROLE (default or small).
preset_default() {
	awk -v r="@$1" '$1 == r { print $2; exit }' "$PRESETS"
}
# preset_names: the presets, on one line.
preset_names() {
	awk '$1 !~ /^[#@]/ && NF { printf "%s ", $1 }' "$PRESETS"
}
# preset_get NAME: NAME's "sockets dies cores threads cpu"; false if NAME
# is no preset.
preset_get() {
	awk -v p="$1" '$1 !~ /^[#@]/ && $1 == p { $1 = ""; print substr($0, 2); found = 1; exit }
		END { exit !found }' "$PRESETS"
}
# preset_cpus NAME: the CPUs of NAME.
preset_cpus() {
	local sockets dies cores threads
	read -r sockets dies cores threads _ < <(preset_get "$1")
	echo $((sockets * dies * cores * threads))
}
# need_preset NAME: NAME is a preset of scripts/presets, else stop (exit 2)
# listing them.
need_preset() {
	preset_get "$1" >/dev/null && return
	echo "error: unknown preset '$1'; known presets: $(preset_names)" >&2
	exit 2
}

# need_tree_features NAME...: each NAME (NO_ allowed) is a sched feature of
# build/linux's kernel/sched/features.h, the tree the guest kernel is built
# from, else stop naming it and the features there.
need_tree_features() {
	local h=$BUILD/linux/kernel/sched/features.h f
	for f; do
		grep -qE "^SCHED_FEAT\(${f#NO_}, (true|false)\)" "$h" ||
			die "unknown sched feature '$f': build/linux/kernel/sched/features.h has $(sed -n 's/^SCHED_FEAT(\([A-Z0-9_]*\),.*/\1/p' "$h" | xargs)"
	done
}

# series_switches [-d]: the scheduler features the series adds, from their
# one list, the selftests' switches.h; with -d as the features file shows
# them at their defaults (NAME or NO_NAME).
series_switches() {
	local h=$TOP/tools/testing/selftests/sched/placement/switches.h
	if [ "${1:-}" = -d ]; then
		sed -n 's/^\t{ "\([A-Z0-9_]*\)",\t*true },$/\1/p
			s/^\t{ "\([A-Z0-9_]*\)",\t*false },$/NO_\1/p' "$h"
	else
		sed -n 's/^\t{ "\([A-Z0-9_]*\)",.*/\1/p' "$h"
	fi
}

# sha256_of FILE: its SHA-256, in hex.
sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

