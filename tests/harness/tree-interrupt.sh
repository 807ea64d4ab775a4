#!/usr/bin/env bash
# check: full, budget 900 s
# `make tree` interrupted anywhere (SIGINT, SIGTERM, SIGKILL; while cloning
# the base or while applying the series in place) leaves nothing the next
# run trips on: the rerun succeeds, without FORCE, and gives the same HEAD
# as an uninterrupted run, with a clean tree. The points are fractions of
# the measured length of an uninterrupted run, so they fall at different
# steps whatever the machine's speed; the assertion is the same for all.
. "$(dirname "$0")/../lib.sh"
b=$(mktemp -d); cleanup_on_exit 'rm -rf "$b"'
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

# The base worktree (build/linux-base, for make series' bloat-o-meter and
# make base-vs-series) interrupted while git worktree add checks it out:
# seen in make check, a directory of part of the files and no .git, which
# git took for the enclosing repository. The next use makes it again.
wt_ms() { BUILD=$b bash -c '. "$1/scripts/lib.sh"; . "$1/scripts/lib/kbuild.sh"; base_worktree "$2"' _ "$TOP" "$b/linux" >/dev/null 2>&1; }
rm -rf "$b/linux-base"
git -C "$b/linux" worktree prune
t0=$(date +%s%N)
wt_ms || fail "base_worktree failed"
wt_full=$((($(date +%s%N) - t0) / 1000000))
for pct in 20 60; do
	rm -rf "$b/linux-base"
	git -C "$b/linux" worktree prune
	ms=$((wt_full * pct / 100))
	{ (timeout -s KILL "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))" \
		env BUILD="$b" bash -c '. "$1/scripts/lib.sh"; . "$1/scripts/lib/kbuild.sh"; base_worktree "$2"' _ "$TOP" "$b/linux" >/dev/null 2>&1) || true; } 2>/dev/null
	wt_ms || fail "base_worktree after SIGKILL at $pct% of git worktree add failed"
	[ "$(git -C "$b/linux-base" rev-parse HEAD)" = "$(git -C "$b/linux" rev-parse refs/sp/base)" ] ||
		fail "base worktree after SIGKILL at $pct%: HEAD is not the base"
	[ -z "$(git -C "$b/linux-base" status --porcelain)" ] || fail "base worktree after SIGKILL at $pct% is not clean"
	n=$((n + 1))
done
echo "# base worktree: $wt_full ms to make; SIGKILL at 20% and 60% of it, and the next use repaired it"
