#!/usr/bin/env bash
# `make tree` interrupted anywhere (SIGINT, SIGTERM, SIGKILL; while cloning
# the base or while applying the series in place) leaves nothing the next
# run trips on: the rerun succeeds, without FORCE, and gives the same HEAD
# as an uninterrupted run, with a clean tree. The points are fractions of
# the measured length of an uninterrupted run, so they fall at different
# steps whatever the machine's speed; the assertion is the same for all.
. "$(dirname "$0")/../lib.sh"
b=$(mktemp -d); trap 'rm -rf "$b"' EXIT
mk() { BUILD=$b "$TOP/scripts/mktree.sh" >"$b/log" 2>&1; }
# An uninterrupted run, the reference.
t0=$(date +%s%N)
mk || fail "make tree failed: $(cat "$b/log")"
clone_ms=$((($(date +%s%N) - t0) / 1000000))
want=$(git -C "$b/linux" rev-parse HEAD)
stale() { git -C "$b/linux" config sp.inputs stale; }
stale
t0=$(date +%s%N)
mk || fail "make tree in place failed: $(cat "$b/log")"
place_ms=$((($(date +%s%N) - t0) / 1000000))
echo "# uninterrupted: $clone_ms ms from scratch, $place_ms ms in place"

check_rerun() {
	mk || fail "rerun after $1 failed: $(cat "$b/log")"
	[ "$(git -C "$b/linux" rev-parse HEAD)" = "$want" ] || fail "rerun after $1 gave another HEAD"
	[ -z "$(git -C "$b/linux" status --porcelain --untracked-files=no)" ] || fail "rerun after $1 left a dirty tree"
	! git -C "$b/linux" rev-parse -q --verify refs/sp/assembling >/dev/null || fail "rerun after $1 left refs/sp/assembling"
}
# interrupt SIG PCT MS: run make tree, send SIG after PCT% of MS.
interrupt() {
	local ms=$(($3 * $2 / 100))
	(BUILD=$b timeout -s "$1" "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))" \
		"$TOP/scripts/mktree.sh" >/dev/null 2>&1) 2>/dev/null || true
}
n=0
for point in INT:30 TERM:60 KILL:30 KILL:85; do
	# In place: the series is applied again on the existing tree.
	stale
	interrupt "${point%:*}" "${point#*:}" "$place_ms" 2>/dev/null
	check_rerun "SIG${point%:*} at ${point#*:}% of an in-place run"
	n=$((n + 1))
done
# From scratch: build/linux is cloned from the base, then the series applied.
rm -rf "$b/linux"
interrupt KILL 50 "$clone_ms" 2>/dev/null
check_rerun "SIGKILL at 50% of a run from scratch"
n=$((n + 1))
echo "# $n interrupted runs, each rerun gave HEAD $(git -C "$b/linux" rev-parse --short HEAD)"
