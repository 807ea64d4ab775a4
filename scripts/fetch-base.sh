#!/usr/bin/env bash
# Fetch the pinned base kernel and import it as a git repository, once.
#
# Prints the path of a bare git repository whose HEAD is the base commit.
# Sources, in order of precedence:
#   KSRC=/path            a Linux git tree of the user's (its HEAD is the base)
#   KERNEL_TARBALL=/path  the linux-source tarball, checked against series/base
#   otherwise             Debian's package, fetched with a private apt state
# Everything lands in the cache through a temporary name and a rename, so an
# interrupted or failed run leaves nothing half-written behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/base.sh"
. "$TOP/scripts/lib/apt.sh"

APT_GET=${APT_GET:-apt-get}

VERSION=$(base_get VERSION)
PACKAGE=$(base_get PACKAGE)
PKG_VERSION=$(base_get PKG_VERSION)
SUITE=$(base_get SUITE)
DEB_SHA256=$(base_get DEB_SHA256)
TARBALL_PATH=$(base_get TARBALL_PATH)
TARBALL_SHA256=$(base_get TARBALL_SHA256)

mkdir -p "$CACHE"
tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
cleanup_on_exit 'rm -rf "$tmp"'

if [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/kernel/sched/fair.c" ] && [ -f "$KSRC/Makefile" ] ||
		die "KSRC=$KSRC is not a Linux source tree (no kernel/sched/fair.c); point KSRC at a Linux git checkout, or unset it to use the pinned $VERSION base"
	git -C "$KSRC" rev-parse --verify -q HEAD >/dev/null ||
		die "KSRC=$KSRC is not a git tree; run 'git init && git add -A && git commit' in it, or use KERNEL_TARBALL="
	git -C "$KSRC" rev-parse --absolute-git-dir
	exit 0
fi

tarball=$CACHE/linux-source-$VERSION.tar.xz

fetch_deb() {
	command -v "$APT_GET" >/dev/null ||
		die "$APT_GET not found: fetching the base needs Debian/Ubuntu's apt; set KSRC=/path/to/linux-git-tree or KERNEL_TARBALL=/path/to/linux-source.tar.xz instead"
	private_apt "$CACHE/apt" "$SUITE"
	note "fetching $PACKAGE $PKG_VERSION from $SUITE"
	"$APT_GET" "${APT_OPTS[@]}" update >"$tmp/apt.log" 2>&1 ||
		die "apt-get update of $SUITE failed (see below); check the network or set KERNEL_TARBALL=
$(tail -n 5 "$tmp/apt.log")"
	local avail
	avail=$(apt-cache "${APT_OPTS[@]}" madison "$PACKAGE" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | xargs)
	case " $avail " in
	*" $PKG_VERSION "*) ;;
	*) die "$PACKAGE $PKG_VERSION is no longer in $SUITE (available: ${avail:-none}); pin one of those in series/base if the series applies to it, or set KERNEL_TARBALL=" ;;
	esac
	(cd "$tmp" && "$APT_GET" "${APT_OPTS[@]}" download "$PACKAGE=$PKG_VERSION" >>"$tmp/apt.log" 2>&1) ||
		die "apt-get download $PACKAGE=$PKG_VERSION failed; see $(tail -n 3 "$tmp/apt.log")"
	local deb
	deb=$(ls "$tmp"/*.deb)
	local got
	got=$(sha256_of "$deb")
	[ "$got" = "$DEB_SHA256" ] ||
		die "sha256 mismatch for $(basename "$deb"): got $got, series/base pins $DEB_SHA256; the archive copy changed; check the mirror, or update series/base after reviewing the new package"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "./$TARBALL_PATH"
	mv "$tmp/$TARBALL_PATH" "$tmp/tarball"
	rm -f "$deb"
}

if [ -n "${KERNEL_TARBALL:-}" ]; then
	[ -f "$KERNEL_TARBALL" ] || die "KERNEL_TARBALL=$KERNEL_TARBALL does not exist; fix the path or unset it to fetch the pinned base"
	got=$(sha256_of "$KERNEL_TARBALL")
	[ "$got" = "$TARBALL_SHA256" ] ||
		die "sha256 mismatch for KERNEL_TARBALL=$KERNEL_TARBALL: got $got, series/base pins $TARBALL_SHA256; use the tarball of $PACKAGE $PKG_VERSION, or KSRC= for a tree of your own"
	src_tarball=$KERNEL_TARBALL
elif [ -f "$tarball" ]; then
	src_tarball=$tarball
else
	fetch_deb
	got=$(sha256_of "$tmp/tarball")
	[ "$got" = "$TARBALL_SHA256" ] ||
		die "sha256 mismatch for $TARBALL_PATH: got $got, series/base pins $TARBALL_SHA256; update series/base only after reviewing the new package"
	mv "$tmp/tarball" "$tarball"
	src_tarball=$tarball
fi

repo=$CACHE/base-$VERSION-${TARBALL_SHA256:0:12}.git
if [ ! -d "$repo" ]; then
	note "importing $VERSION into $repo (once; about a minute)"
	mkdir "$tmp/src"
	tar -xJf "$src_tarball" -C "$tmp/src" --strip-components=1
	[ -f "$tmp/src/kernel/sched/fair.c" ] || die "$src_tarball does not hold a Linux tree"
	# Debian's source ends .gitignore with a block that ignores every
	# top-level entry but debian/; git would add nothing. Drop that block.
	sed -i '/^\/\*$/,$d' "$tmp/src/.gitignore"
	export GIT_DIR=$tmp/repo.git GIT_WORK_TREE=$tmp/src
	git init -q -b base
	git config core.bigFileThreshold 1m
	git add -A
	GIT_AUTHOR_NAME=$GIT_COMMITTER_NAME GIT_AUTHOR_EMAIL=$GIT_COMMITTER_EMAIL \
		GIT_AUTHOR_DATE=$GIT_COMMITTER_DATE \
		git commit -q -m "Linux $VERSION ($PACKAGE $PKG_VERSION)" -m \
		"Imported from $TARBALL_PATH, sha256 $TARBALL_SHA256.
The last block of Debian's top-level .gitignore (which ignores every
top-level entry but debian/) is dropped so that git tracks the tree."
	git config --unset core.worktree
	git config core.bare true
	unset GIT_DIR GIT_WORK_TREE
	mv "$tmp/repo.git" "$repo"
fi
echo "$repo"
