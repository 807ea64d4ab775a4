# Shared helpers for the host-side glue. Sourced, never run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${SCHED_PLACEMENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sched-placement}
BUILD=${BUILD:-$TOP/build}

# Fixed identity and dates for every commit the glue makes, so that the same
# inputs always give the same tree and the same commit hashes.
export GIT_COMMITTER_NAME="sched-placement"
export GIT_COMMITTER_EMAIL="sched-placement@localhost"
export GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo ">> $*" >&2
}

# Read a key of series/base (KEY=value lines).
base_get() {
	local v
	v=$(sed -n "s/^$1=//p" "${SERIES_BASE:-$TOP/series/base}")
	[ -n "$v" ] || die "${SERIES_BASE:-series/base} has no $1; restore it from git"
	printf '%s\n' "$v"
}

sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

# Entries of series/series: "patch [overlay-file ...]", comments and blanks skipped.
series_entries() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/series/series"
}

# private_apt DIR SUITE: an apt state of our own under DIR that sees only SUITE
# of the mirror this machine already uses (we never name one), leaving the
# system's apt setup alone. Sets APT_OPTS for apt-get/apt-cache.
private_apt() {
	local dir=$1 suite=$2 mirror
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
	mirror=$("${APT_GET:-apt-get}" indextargets --format '$(REPO_URI)' 2>/dev/null |
		grep -v -- '-security' | sort -u | head -n1)
	[ -n "$mirror" ] || die "no apt mirror configured on this machine; run 'apt-get update' first"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		>"$dir/sources.list"
	APT_OPTS=(-o "Dir::State=$dir/state" -o "Dir::Cache=$dir/cache"
		-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
		-o "Dir::State::status=/var/lib/dpkg/status" -o "APT::Sandbox::User=root" -q)
}
