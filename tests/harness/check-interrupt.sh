#!/usr/bin/env bash
# check: full, budget 3600 s
# `make check` interrupted in the stages that write outside its own
# temporary directory leaves nothing behind and the next run passes:
#   - SIGINT to the group (Ctrl-C) in the tree stage, once it is cloning
#     its scratch tree into its temporary directory;
#   - SIGTERM to the group (as a CI time limit sends it) in the make series
#     stage, once it is signing the patches in build/series.*.
# After each: no temporary directory of make check, no build/series.*, and
# build/linux clean with no assembly marker; then the stage runs again and
# passes. The VM stages are covered by tests/vm/interrupt.sh.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
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
# interrupt SIG STAGE-REGEX WHAT FILE-GLOB: run make check's STAGE, send SIG
# to its group as soon as FILE-GLOB exists (the stage is writing what it
# must clean up), and wait for it. timeout(1) stands in for the terminal
# or CI: a signal it gets goes to its child's whole group.
interrupt() {
	local sig=$1 stage=$2 what=$3 glob=$4 pid rc=0
	# Deadlines, not expectations: on a fresh clone the make series stage
	# first builds the VM kernel and the base kernel, cold, before it signs
	# anything.
	timeout 3600 env TMPDIR="$t" CHECK_ONLY="$stage" "$C" >"$t/log" 2>&1 &
	pid=$!
	wait_until 3000 "$pid" compgen -G "$glob" >/dev/null || rc=$?
	[ "$rc" != 2 ] || fail "$what ended before $glob appeared: $(tail -n 5 "$t/log")"
	[ "$rc" = 0 ] || fail "no $glob after 3000 s of $what"
	kill -"$sig" "$pid"
	wait "$pid" || rc=$?
	[ "$rc" -ge 128 ] || fail "$what did not die of SIG$sig (exit $rc): $(tail -n 5 "$t/log")"
}
interrupt INT '^tree:' "the tree stage" "$t/sp-check.*/rt/linux/.git"
leftovers "SIGINT in the tree stage, while it cloned its scratch tree"
rerun '^tree:' "SIGINT in the tree stage"

interrupt TERM '^series: make series' "make series" "$BUILD/series.*/sign.git"
leftovers "SIGTERM in make series, while it signed the patches"
rerun '^series: make series' "SIGTERM in make series"
