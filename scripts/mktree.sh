#!/usr/bin/env bash
# Assemble build/linux: the base commit, then one commit per series/series entry
# (the entry's patch applied with git am, plus the new files it names, taken
# from this repository's kernel-shaped directories).
#
# Re-running gives the same tree and the same commit hashes. An existing
# build/linux is reset in place rather than re-cloned, so files the series does
# not touch keep their timestamps and the kernel build stays incremental.
# Work that is only in build/linux (uncommitted, or committed but not yet
# written back with `make export`) is never thrown away: we stop instead.
# refs/sp/assembling marks an assembly under way: a run that was interrupted
# leaves it, and the next run knows that the half-made tree is its own and
# starts it over.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/base.sh"

# The checks below only read: git status must not take index.lock to write a
# refreshed index, or an interrupt there would leave a lock the next run trips on.
export GIT_OPTIONAL_LOCKS=0
base_repo=$("$TOP/scripts/fetch-base.sh")
tree=$BUILD/linux
mkdir -p "$BUILD"

# Everything the tree is made of; when none of it changed and build/linux is
# still what we assembled, there is nothing to do (and no mtime to disturb).
inputs=$( (
	echo "$base_repo $(git --git-dir="$base_repo" rev-parse HEAD)"
	cd "$TOP" && cat series/series
	series_entries | while read -r patch overlay; do
		cat "series/$patch" $overlay 2>/dev/null
	done
) | sha256sum | cut -c1-16)

if [ -d "$tree/.git" ] && [ "$(git -C "$tree" config sp.base || true)" = "$base_repo" ]; then
	cd "$tree"
	if [ "$(git config sp.inputs || true)" = "$inputs" ] &&
		[ "$(git rev-parse HEAD)" = "$(git rev-parse -q --verify refs/sp/assembled)" ] &&
		[ -z "$(git status --porcelain --untracked-files=no)" ]; then
		# Interrupted after its last step: the assembly is complete.
		git update-ref -d refs/sp/assembling 2>/dev/null || true
		note "build/linux is up to date, HEAD $(git rev-parse --short HEAD)"
		exit 0
	fi
	if git rev-parse -q --verify refs/sp/assembling >/dev/null; then
		note "build/linux: an earlier assembly did not finish; starting it over"
		# A git killed in the middle leaves its lock files, and an
		# interrupted git am or overlay copy leaves new files behind.
		find .git -name '*.lock' ! -path '.git/objects/*' -delete
		restart=1
	else
		[ -z "$(git status --porcelain --untracked-files=no)" ] ||
			die "build/linux has uncommitted changes; commit them and run 'make export', or discard them with 'git -C build/linux reset --hard'"
		if git rev-parse -q --verify refs/sp/assembled >/dev/null &&
			[ "$(git rev-parse HEAD)" != "$(git rev-parse refs/sp/assembled)" ] &&
			[ -z "${FORCE:-}" ]; then
			die "build/linux has commits that are not in series/ yet; run 'make export' first (or 'make tree FORCE=1' to drop them; they stay in the reflog)"
		fi
		git update-ref refs/sp/assembling HEAD
	fi
	git am --abort >/dev/null 2>&1 || true
	git checkout -q -f -B sched-placement refs/sp/base
	[ -z "${restart:-}" ] || git clean -fdq
else
	[ ! -e "$tree" ] || [ -d "$tree/.git" ] ||
		die "$tree exists and is not a git tree; move it away"
	note "cloning the base into build/linux"
	# Left by a clone that was interrupted.
	rm -rf "$BUILD"/linux.tmp.*
	tmp=$(mktemp -d "$BUILD/linux.tmp.XXXXXX")
	cleanup_on_exit 'rm -rf "$tmp"'
	git clone -q --shared --no-checkout "$base_repo" "$tmp"
	git -C "$tmp" update-ref refs/sp/base "$(git -C "$tmp" rev-parse HEAD)"
	git -C "$tmp" checkout -q -B sched-placement refs/sp/base
	git -C "$tmp" config sp.base "$base_repo"
	git -C "$tmp" update-ref refs/sp/assembling HEAD
	git -C "$tmp" config user.name "$(git -C "$TOP" config user.name || echo sched-placement)"
	git -C "$tmp" config user.email "$(git -C "$TOP" config user.email || echo sched-placement@localhost)"
	if [ -d "$tree" ]; then
		git -C "$tree" update-ref refs/sp/previous HEAD 2>/dev/null || true
		rm -rf "$tree"
	fi
	mv "$tmp" "$tree"
	trap - EXIT INT TERM HUP
	cd "$tree"
fi

n=0
while read -r patch overlay; do
	n=$((n + 1))
	p=$TOP/series/$patch
	[ -f "$p" ] || die "series/series names $patch, which does not exist"
	# -3 lets a user tree (KSRC=) that moved a little still take the series.
	if ! git am -q -3 --keep-cr "$p" >/dev/null 2>"$BUILD/am.log"; then
		git am --abort >/dev/null 2>&1 || true
		git reset -q --hard refs/sp/base
		die "$patch does not apply to $(git log -1 --format=%s refs/sp/base):
$(cat "$BUILD/am.log")"
	fi
	if [ -n "$overlay" ]; then
		for f in $overlay; do
			[ -f "$TOP/$f" ] || die "series/series entry $patch names $f, which does not exist"
			mkdir -p "$(dirname "$f")"
			cp "$TOP/$f" "$f"
			git add -f "$f"
		done
		git commit -q --amend --no-edit --allow-empty
	fi
done < <(series_entries)

git update-ref refs/sp/assembled HEAD
git config sp.inputs "$inputs"
git update-ref -d refs/sp/assembling
note "build/linux: $(git log -1 --format=%s refs/sp/base) + $n commits, HEAD $(git rev-parse --short HEAD)"
