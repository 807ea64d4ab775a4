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
	trap 'rm -rf "$SCHED_PLACEMENT_CACHE"' EXIT
}
assert_cache_clean() {
	local left
	left=$(find "$SCHED_PLACEMENT_CACHE" -mindepth 1 -maxdepth 1 ! -name apt)
	[ -z "$left" ] || fail "a failed fetch left this in the cache: $left"
}
