#!/usr/bin/env bash
# Write the commits of build/linux back into this repository: the reverse of
# mktree.sh. Each commit after the base becomes one series/ entry: its changes to
# existing files as a format-patch, the files it adds as overlay files at their
# kernel path. A commit that changes only MAINTAINERS becomes MAINTAINERS.patch.
#
# The output is deterministic (no signature, zero From hash, fixed abbrev, no
# numbering), so a round trip with no edits changes no file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$BUILD/linux
[ -d "$tree/.git" ] || die "no build/linux; run 'make tree' first"
cd "$tree"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes; commit them (git commit) and run 'make export' again"

out=$(mktemp -d "$BUILD/export.XXXXXX")
cleanup_on_exit 'rm -rf "$out"'
mkdir -p "$out/series" "$out/overlay"

# Keep the comment header of series/series.
sed -n '/^#/p;/^[^#]/q' "$TOP/series/series" 2>/dev/null | grep '^#' >"$out/series/series" || true

# The overlay files a series file lists (every field after the first), sorted.
overlay_files() {
	[ -f "$1" ] || return 0
	awk '!/^#/ { for (i = 2; i <= NF; i++) print $i }' "$1" | sort
}

declare -A added_by
n=0
for c in $(git rev-list --reverse refs/sp/base..HEAD); do
	n=$((n + 1))
	subject=$(git log -1 --format=%s "$c")
	mapfile -t new < <(git diff-tree --no-commit-id -r --diff-filter=A --name-only "$c")
	mapfile -t all < <(git diff-tree --no-commit-id -r --name-only "$c")
	for f in "${all[@]}"; do
		if [ -n "${added_by[$f]:-}" ]; then
			die "'$subject' changes $f, which '${added_by[$f]}' adds; new files live whole in one commit: fold the change into that commit (git rebase -i)"
		fi
	done
	excl=()
	for f in "${new[@]}"; do
		added_by[$f]=$subject
		excl+=(":(exclude)$f")
		mkdir -p "$out/overlay/$(dirname "$f")"
		git show "$c:$f" >"$out/overlay/$f"
	done
	[ "${#all[@]}" -gt "${#new[@]}" ] ||
		die "'$subject' only adds new files; every series entry must also wire them into an existing file (Kconfig, Makefile, index)"
	git -c core.abbrev=12 -c diff.noprefix=false -c format.signature= \
		format-patch -q -1 -N --zero-commit --no-signature --start-number="$n" \
		-o "$out/p" "$c" -- . "${excl[@]}"
	p=$(ls "$out/p")
	if [ "${all[*]}" = MAINTAINERS ]; then
		mv "$out/p/$p" "$out/MAINTAINERS.patch"
		entry=../MAINTAINERS.patch
	else
		mv "$out/p/$p" "$out/series/$p"
		entry=$p
	fi
	rmdir "$out/p"
	echo "$entry${new[*]:+ ${new[*]}}" >>"$out/series/series"
done

# Replace what series/ held with the new set; only now touch the repository.
# An overlay file the old series added and the new one does not (a file a
# commit stopped adding, or renamed) goes, so no stale copy stays behind.
gone=$(comm -23 <(overlay_files "$TOP/series/series") <(overlay_files "$out/series/series"))
for f in $gone; do
	rm -f "$TOP/$f"
	rmdir -p --ignore-fail-on-non-empty "$(dirname "$TOP/$f")"
done
rm -f "$TOP"/series/[0-9][0-9][0-9][0-9]-*.patch
cp "$out"/series/* "$TOP/series/"
if [ -f "$out/MAINTAINERS.patch" ]; then
	cp "$out/MAINTAINERS.patch" "$TOP/MAINTAINERS.patch"
fi
(cd "$out/overlay" && find . -type f -print0) | while IFS= read -r -d '' f; do
	mkdir -p "$TOP/$(dirname "$f")"
	cmp -s "$out/overlay/$f" "$TOP/$f" || cp "$out/overlay/$f" "$TOP/$f"
done
git update-ref refs/sp/assembled HEAD
note "exported $n commits to series/"
