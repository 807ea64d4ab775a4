# Kernel builds, and the unpatched base's worktree and kernel; for the scripts that build one.
# shellcheck shell=bash

# kbuild_make SRC OBJ ARGS...: make in kernel tree SRC, objects in OBJ, through
# ccache with paths relative to the repository, so another clone (CI's) hits
# the same cache; reproducible build identity.
kbuild_make() {
	local src=$1 obj=$2
	shift 2
	CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1 \
		make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2000-01-01" KBUILD_BUILD_USER=sched-placement \
		KBUILD_BUILD_HOST=localhost "$@"
}

# base_worktree TREE: a worktree of TREE at its base commit, in build/linux-base
# (for builds of the unpatched kernel). Prints its path.
#
# The worktree is made under linux-base.tmp and moved into place when it is
# complete, so that build/linux-base is never half checked out; a .tmp left
# by an interrupted run is removed, and so is a linux-base that is not a
# worktree of its own (from before this rule). Only this function uses the
# worktree, so an index.lock found there was left by a killed git.
# drop_worktree REPO PATH: remove PATH and its worktree entry in REPO, also
# when git worktree add was killed and left the entry locked.
drop_worktree() {
	git -C "$1" worktree unlock "$2" 2>/dev/null || true
	rm -rf "$2"
	git -C "$1" worktree prune
}
base_worktree() {
	local wt=$BUILD/linux-base top
	git -C "$1" worktree list --porcelain | grep -qxF "worktree $wt.tmp" ||
		[ -e "$wt.tmp" ] && drop_worktree "$1" "$wt.tmp"
	if [ -d "$wt" ]; then
		top=$(git -C "$wt" rev-parse --show-toplevel 2>/dev/null || true)
		if [ "$top" != "$(cd "$wt" && pwd -P)" ]; then
			note "build/linux-base is not a worktree (interrupted?); making it again"
			drop_worktree "$1" "$wt"
		fi
	elif git -C "$1" worktree list --porcelain | grep -qxF "worktree $wt"; then
		drop_worktree "$1" "$wt"
	fi
	if [ ! -d "$wt" ]; then
		git -C "$1" worktree add -q --detach "$wt.tmp" refs/sp/base >&2 &&
			git -C "$1" worktree move "$wt.tmp" "$wt" >&2 ||
			die "cannot make the base worktree build/linux-base"
	fi
	rm -f "$(git -C "$wt" rev-parse --absolute-git-dir)/index.lock"
	git -C "$wt" reset -q --hard "$(git -C "$1" rev-parse refs/sp/base)" >&2 ||
		die "cannot reset build/linux-base to the base"
	echo "$wt"
}

# base_kernel: the bzImage of the base tree with the VM config, built into
# build/kbuild-base when it is not there yet (make series keeps it current).
base_kernel() {
	local k=$BUILD/kbuild-base/arch/x86/boot/bzImage
	[ -f "$k" ] || "$TOP/scripts/build-kernel.sh" "$(base_worktree "$BUILD/linux")" "$BUILD/kbuild-base" >/dev/null ||
		die "building the base kernel failed"
	echo "$k"
}
