# Reading series/base and series/series; for fetch-base, mktree, mkseries and series-check.
# shellcheck shell=bash

# Read a key of series/base (KEY=value lines).
base_get() {
	pin_get "${SERIES_BASE:-$TOP/series/base}" "$1"
}

# base_origin TREE: where the base (refs/sp/base) of TREE came from. "history":
# a commit with parents, so one of a public history (a KSRC= git tree).
# "pinned": the history-less import of the pinned Debian tarball, which has
# that import's subject. "unknown": any other commit without parents (a
# shallow clone, a tree the user committed in one go).
base_origin() {
	local b
	b=$(git -C "$1" rev-parse refs/sp/base)
	if git -C "$1" rev-parse -q --verify "$b^" >/dev/null; then
		echo history
	elif [ "$(git -C "$1" log -1 --format=%s "$b")" = "Linux $(base_get VERSION) ($(base_get PACKAGE) $(base_get PKG_VERSION))" ]; then
		echo pinned
	else
		echo unknown
	fi
}

# Entries of series/series: "patch [overlay-file ...]", comments and blanks skipped.
series_entries() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/series/series"
}
