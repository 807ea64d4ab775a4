#!/usr/bin/env bash
# `make check` interrupted in the stages that write outside its own
# temporary directory leaves nothing behind and the next run passes:
#   - SIGINT to the group (Ctrl-C) 15 s into the tree stage, which clones
#     and assembles a scratch tree in its temporary directory, then
#     reassembles build/linux;
#   - SIGTERM to the group (as a CI time limit sends it) 20 s into the make
#     series stage, which writes build/series.* and a scratch series.
# After each: no temporary directory of make check, no build/series.*, and
# build/linux clean with no assembly marker; then the stage runs again and
# passes. The VM stages are covered by tests/vm/interrupt.sh.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
C=$TOP/scripts/check.sh
check() { TMPDIR=$t CHECK_ONLY=$1 "$C" >"$t/log" 2>&1; }
leftovers() { # after
	local left
	left=$(find "$t" -mindepth 1 -maxdepth 1 -name 'sp-*')
	[ -z "$left" ] || fail "$1 left make check's temporary directories: $(du -sh $left)"
	left=$(find "$BUILD" -mindepth 1 -maxdepth 1 -name 'series.*' 2>/dev/null)
	[ -z "$left" ] || fail "$1 left $left"
	if [ -d "$BUILD/linux/.git" ]; then
		! git -C "$BUILD/linux" rev-parse -q --verify refs/sp/assembling >/dev/null ||
			echo "# $1 left build/linux half-assembled (refs/sp/assembling): the rerun must repair it"
	fi
	echo "# $1: nothing of make check left"
}
rerun() { # stage-regex after
	check "$1" || fail "make check of '$1' after $2 failed: $(tail -n 30 "$t/log")"
	grep -q '^1 passed, 0 failed' "$t/log" || fail "rerun after $2: $(tail -n 5 "$t/log")"
	[ -z "$(git -C "$BUILD/linux" status --porcelain --untracked-files=no)" ] || fail "build/linux dirty after the rerun"
	echo "# rerun after $2: passed"
}
rc=0
timeout -s INT 15 env TMPDIR="$t" CHECK_ONLY='^tree:' "$C" >"$t/log" 2>&1 || rc=$?
[ "$rc" = 124 ] || fail "the tree stage finished within 15 s (exit $rc), nothing was interrupted: $(tail -n 5 "$t/log")"
leftovers "SIGINT 15 s into the tree stage"
rerun '^tree:' "SIGINT in the tree stage"

rc=0
timeout -s TERM 20 env TMPDIR="$t" CHECK_ONLY='^series: make series' "$C" >"$t/log" 2>&1 || rc=$?
[ "$rc" = 124 ] || fail "make series finished within 20 s (exit $rc), nothing was interrupted: $(tail -n 5 "$t/log")"
leftovers "SIGTERM 20 s into make series"
rerun '^series: make series' "SIGTERM in make series"
