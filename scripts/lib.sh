# Shared helpers for the host-side glue. Sourced, never run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${SCHED_PLACEMENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sched-placement}
BUILD=${BUILD:-$TOP/build}

# Fixed identity and dates for every commit the glue makes, so that the same
# inputs always give the same tree and the same commit hashes.
export GIT_COMMITTER_NAME="sched-placement"
export GIT_COMMITTER_EMAIL="sched-placement@localhost"
export GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"

# cleanup_on_exit CMD (bench/lib.sh): CMD runs on exit and on INT, TERM, HUP.
# shellcheck source=../bench/lib.sh
. "$TOP/bench/lib.sh"

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo ">> $*" >&2
}

# Read a key of series/base (KEY=value lines).
base_get() {
	local v
	v=$(sed -n "s/^$1=//p" "${SERIES_BASE:-$TOP/series/base}")
	[ -n "$v" ] || die "${SERIES_BASE:-series/base} has no $1; restore it from git"
	printf '%s\n' "$v"
}

# undeliverable EMAIL: true if EMAIL cannot receive mail: a reserved name
# (RFC 2606 and RFC 6761: .example, .invalid, .test, .localhost, and
# example.com, .net, .org), localhost, or git's "(none)" guess. Such an
# identity cannot sign off a patch.
undeliverable() {
	[[ ${1,,} =~ @(.*\.)?(example|invalid|test|localhost)$|@(.*\.)?example\.(com|net|org)$|@localhost$|\(none\)|^[^@]*$ ]]
}

# dpkg_installed PKG...: "PKG VERSION" for each PKG dpkg has installed, in
# one query (DPKG_QUERY names another binary, for the tests). A package dpkg
# does not know is left out of its output.
dpkg_installed() {
	local p v st
	while read -r p v st; do
		case $st in *' ok installed') echo "$p $v" ;; esac
	done < <("${DPKG_QUERY:-dpkg-query}" -W -f '${Package} ${Version} ${Status}\n' "$@" 2>/dev/null || true)
}

sha256_of() {
	sha256sum "$1" | cut -d' ' -f1
}

# Entries of series/series: "patch [overlay-file ...]", comments and blanks skipped.
series_entries() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/series/series"
}

# private_apt DIR SUITE: an apt state of our own under DIR that sees only SUITE
# of the mirror this machine already uses (we never name one), leaving the
# system's apt setup alone. Sets APT_OPTS for apt-get/apt-cache.
private_apt() {
	local dir=$1 suite=$2 mirror
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
	mirror=$("${APT_GET:-apt-get}" indextargets --format '$(REPO_URI)' 2>/dev/null |
		grep -v -- '-security' | sort -u | head -n1)
	[ -n "$mirror" ] || die "no apt mirror configured on this machine; run 'apt-get update' first"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		>"$dir/sources.list"
	APT_OPTS=(-o "Dir::State=$dir/state" -o "Dir::Cache=$dir/cache"
		-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
		-o "Dir::State::status=/var/lib/dpkg/status" -o "APT::Sandbox::User=root" -q)
}

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

# The sched_placement KUnit suite's TAP from a guest's dmesg or console (timestamps cut).
kunit_suite_tap() {
	# the serial console ends its lines with CR LF
	{ tr -d '\r' <"$1"; } 2>/dev/null | sed -E 's/^\[ *[0-9.]+\] //' |
		sed -n '/# Subtest: sched_placement/,/ok [0-9]* sched_placement/p'
}

# results_begin NAME: start a results directory, results/NAME.partial, and set
# RESULTS to it (SP_RESULTS=DIR stands for results/). results_commit renames
# it to results/NAME once the run is complete. A run that is interrupted or fails leaves only a .partial
# directory (its raw data kept, never mistaken for a result); nothing reads
# those, and the next run starts under a new name.
results_begin() {
	RESULTS_FINAL=${SP_RESULTS:-$TOP/results}/$1
	RESULTS=$RESULTS_FINAL.partial
	mkdir -p "$RESULTS"
}
results_commit() {
	mv -T "$RESULTS" "$RESULTS_FINAL"
	RESULTS=$RESULTS_FINAL
}

# vm_run [-t] OUT VM.SH-ARGS...: run scripts/vm.sh with its stdout written to
# OUT (-t: and copied to ours, as tee does) and return its exit status.
# SIGINT, SIGTERM or SIGHUP to this shell stop the guest first: vm.sh gets
# SIGTERM (a background job ignores SIGINT) and stops QEMU, then the
# caller's own trap for the signal runs, or the shell dies of it. A plain
# `vm.sh ... | tee OUT` could not do that: a shell defers its traps while a
# foreground job runs, so a SIGTERM to the calling script alone (not its
# process group) killed the script and left vm.sh, vng and QEMU running.
vm_run() {
	local copy=0 out pid tpid fifo rc=0 sig
	if [ "$1" = -t ]; then
		copy=1
		shift
	fi
	out=$1
	shift
	# OUT first: a reader that cannot open it would leave the FIFO
	# without one, and vm.sh blocked opening it for ever.
	: >"$out" || return 1
	fifo=$(mktemp -u "${TMPDIR:-/tmp}/sp-vm-out.XXXXXX")
	mkfifo "$fifo" || return 1
	VM_RUN_TRAPS=$(trap -p INT TERM HUP)
	VM_RUN_VM='' VM_RUN_READER=''
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064 # the FIFO's name is fixed now
		trap "vm_run_stop $sig '$fifo'" "$sig"
	done
	if [ "$copy" = 1 ]; then
		tee "$out" <"$fifo" &
	else
		cat <"$fifo" >"$out" &
	fi
	tpid=$!
	VM_RUN_READER=$tpid
	"${VM_SH:-$TOP/scripts/vm.sh}" "$@" >"$fifo" &
	pid=$!
	VM_RUN_VM=$pid
	wait "$pid" || rc=$?
	wait "$tpid" || true
	rm -f "$fifo"
	vm_run_restore
	return "$rc"
}
vm_run_restore() {
	trap - INT TERM HUP
	eval "$VM_RUN_TRAPS"
}
vm_run_stop() { # SIGNAL FIFO
	local fd
	trap '' INT TERM HUP
	# vm.sh (it stops the guest); then the reader ends at the FIFO's end of
	# file with all of the output. Opening the FIFO read-write does not
	# block, and lets a reader whose writer never started see its end.
	if [ -n "$VM_RUN_VM" ]; then
		kill -TERM "$VM_RUN_VM" 2>/dev/null || true
		wait "$VM_RUN_VM" 2>/dev/null || true
	fi
	if [ -n "$VM_RUN_READER" ]; then
		exec {fd}<>"$2" && exec {fd}>&-
		wait "$VM_RUN_READER" 2>/dev/null || true
	fi
	rm -f "$2"
	vm_run_restore
	kill -s "$1" "$BASHPID"
	# Still here: the caller's trap did not exit, or the signal is ignored.
	exit $((128 + $(kill -l "$1")))
}
