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
#   results.sh  results_begin, results_commit
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

# series_switches [-d]: the scheduler features the series adds, from their
# one list, the selftests' switches.h; with -d as the features file shows
# them at their defaults (NAME or NO_NAME).
series_switches() {
	local h=$TOP/tools/testing/selftests/sched/placement/switches.h
	if [ "${1:-}" = -d ]; then
		sed -n 's/^PLACEMENT_SWITCH(\([A-Z_]*\), true)$/\1/p
			s/^PLACEMENT_SWITCH(\([A-Z_]*\), false)$/NO_\1/p' "$h"
	else
		sed -n 's/^PLACEMENT_SWITCH(\([A-Z_]*\), .*/\1/p' "$h"
	fi
}

# sha256_of FILE: its SHA-256, in hex.
sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

