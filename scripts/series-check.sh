#!/usr/bin/env bash
# Series hygiene on the assembled tree (build/linux), one check per call:
#
#   series-check.sh checkpatch   checkpatch.pl --strict on every series/ patch: no ERROR or
#                                WARNING; each CHECK must be justified in series/checkpatch.justify
#   series-check.sh bisect       every commit of the series builds with the VM config
#   series-check.sh w1           `make W=1 kernel/sched/` warns no more than on the base, with
#                                the VM config and with it less SCHEDSTATS, less NUMA, and
#                                with the VM config built by Clang 19 (LLVM=-19)
#   series-check.sh maintainers  get_maintainer.pl names SCHEDULER for every patch and added file,
#                                and series/cc copies on each patch everyone it names
#   series-check.sh mail         make series for a sender: From: and Signed-off-by: the
#                                sender, no placeholder identity left (scratch output)
#
# bisect and w1 remember the commits they passed (by tree hash, in build/), so
# a re-run with nothing changed costs nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/base.sh"
. "$TOP/scripts/lib/kbuild.sh"
. "$TOP/scripts/lib/mail.sh"

tree=$BUILD/linux
[ -d "$tree/.git" ] || die "no build/linux; run 'make tree' first"
base=$(git -C "$tree" rev-parse refs/sp/base)
head=$(git -C "$tree" rev-parse HEAD)

# under_scheduler FILE...: does get_maintainer.pl, at the series' head,
# name the SCHEDULER maintainers for every FILE? Prints the first it does
# not name them for.
under_scheduler() {
	local f
	for f in "$@"; do
		(cd "$tree" && scripts/get_maintainer.pl --nogit --nogit-fallback -f "$f") |
			grep -qF '(maintainer:SCHEDULER)' || { echo "$f"; return 1; }
	done
}

# The patches as they are mailed (make series): each commit whole, new files
# included, which series/ keeps apart as overlay files.
checkpatch() {
	local p out bad=0 justify=$TOP/series/checkpatch.justify
	local dir=$BUILD/checkpatch
	local history=yes
	git -C "$tree" rev-parse -q --verify "$base^" >/dev/null || history=no
	rm -rf "$dir"
	git -C "$tree" format-patch -q -o "$dir" "$base..$head"
	for p in "$dir"/*.patch; do
		# Run from inside the kernel tree so that checkpatch knows it.
		out=$(cd "$tree" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --quiet --show-types "$p" 2>&1 || true)
		# Originally-by: is a tag Documentation/process/maintainer-tip.rst
		# lists for crediting the author of a re-implemented idea, but
		# checkpatch does not know it; drop exactly that report.
		out=$(echo "$out" | awk -v RS= -v ORS='\n\n' '!/BAD_SIGN_OFF: Non-standard signature: Originally-by:/')
		# A base imported from a release tarball has no history, so
		# checkpatch cannot look up the commit a Fixes: tag names; drop
		# that report only then (a KSRC tree with history keeps it).
		if [ "$history" = no ]; then
			out=$(awk -v RS= -v ORS='\n\n' '!(/UNKNOWN_COMMIT_ID: Unknown commit id/ && /\nFixes: [0-9a-f]+ \(/)' <<<"$out")
		fi
		# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for
		# the files a patch adds. MAINTAINERS.patch, the last of the
		# series, lists them under SCHEDULER rather than each patch
		# adding lines of its own: drop the question where
		# get_maintainer.pl, at the series' head, answers it.
		if under_scheduler $(awk '/^diff --git /{f=$4; sub(/^b\//, "", f)} /^new file mode/{print f}' "$p") >/dev/null; then
			out=$(awk -v RS= -v ORS='\n\n' '!/FILE_PATH_CHANGES/' <<<"$out")
		fi
		if echo "$out" | grep -qE '^(ERROR|WARNING):'; then
			echo "# $(basename "$p"):"
			echo "$out" | sed 's/^/#   /'
			bad=1
		fi
		# Every CHECK needs a line "<patch> <TYPE> <why>" in series/checkpatch.justify
		# (the patch named without its number, which changes when patches are added).
		echo "$out" | sed -n 's/^CHECK:\([A-Z_]*\):.*/\1/p' | sort -u | while read -r type; do
			grep -qE "^$(basename "$p" | sed 's/^[0-9]*-//') $type ." "$justify" 2>/dev/null ||
				{ echo "# $(basename "$p"): CHECK $type has no justification in series/checkpatch.justify"; exit 1; }
		done || bad=1
	done
	# checkpatch leaves its CamelCase cache in the tree it runs in.
	rm -f "$tree"/.checkpatch-camelcase.git.*
	[ "$bad" = 0 ] && echo "# $(ls "$dir" | wc -l) patches clean"
	return "$bad"
}

# get_maintainer.pl, run on each patch as a sender runs it, names the
# SCHEDULER maintainers, and every file the series adds is under SCHEDULER;
# series/cc copies, on each patch, everyone get_maintainer.pl names for it
# (M:, R: and L: of every entry its files are under).
maintainers() {
	local gm="scripts/get_maintainer.pl --nogit --nogit-fallback" f n=0 d p bad=0 who named cc
	d=$(mktemp -d "${TMPDIR:-/tmp}/sp-gm.XXXXXX")
	# shellcheck disable=SC2064
	cleanup_on_exit "rm -rf '$d'"
	git -C "$tree" format-patch -q -o "$d" refs/sp/base..HEAD
	for p in "$d"/*.patch; do
		named=$(cd "$tree" && $gm <"$p")
		# The MAINTAINERS change itself is judged by the files below.
		if ! grep -qE '^diff --git a/MAINTAINERS b/MAINTAINERS$' "$p" || [ "$(grep -c '^diff --git ' "$p")" != 1 ]; then
			grep -qF '(maintainer:SCHEDULER)' <<<"$named" || {
				echo "# '$(sed -n 's/^Subject: //p' "$p")': get_maintainer.pl names no SCHEDULER maintainer"
				bad=1
			}
			n=$((n + 1))
		fi
		cc=$(cc_names "$TOP/series/cc" "$(basename "$p")")
		while IFS= read -r who; do
			grep -qxF "$who" <<<"$cc" || {
				echo "# $(basename "$p"): get_maintainer.pl names $who, whom series/cc does not copy there"
				bad=1
			}
		done < <(sed 's/ (.*)$//' <<<"$named")
	done
	f=$(under_scheduler $(git -C "$tree" diff --name-only --diff-filter=A refs/sp/base HEAD)) || {
		echo "# $f: not under SCHEDULER"
		bad=1
	}
	[ "$bad" = 0 ] || return 1
	echo "# get_maintainer.pl names the SCHEDULER maintainers for $n patches and every file they add; series/cc copies everyone it names"
}

# cc_names CCFILE PATCHNAME: the addresses series/cc copies on PATCHNAME
cc_names() {
	python3 - "$1" "$2" <<'PY'
import fnmatch, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    pat, _, who = line.partition('\t')
    if pat == 'all' or fnmatch.fnmatch(sys.argv[2], pat):
        print(who.strip())
PY
}

# Run "$@" with build/linux checked out at commit $1, then put the branch back.
at_commit() {
	local c=$1
	shift
	git -C "$tree" checkout -q --detach "$c"
	local rc=0
	"$@" || rc=$?
	git -C "$tree" checkout -q sched-placement
	return "$rc"
}

# The identity of what a cached check saw: the tree, and the config fragment
# the kernel is built with (a fragment change alone must re-run the checks).
check_key() { # TREEISH
	echo "$(git -C "$tree" rev-parse "$1^{tree}") $(sha256_of "$TOP/configs/vm.config" | cut -c1-16)"
}

bisect() {
	local ok=$BUILD/bisect-ok c t n=0
	touch "$ok"
	for c in $(git -C "$tree" rev-list --reverse "$base..$head"); do
		n=$((n + 1))
		t=$(check_key "$c")
		if grep -qx "$t" "$ok"; then
			echo "# $n $(git -C "$tree" log -1 --format=%s "$c"): built before"
			continue
		fi
		if ! at_commit "$c" "$TOP/scripts/build-kernel.sh" >"$BUILD/bisect.log" 2>&1; then
			echo "# commit $n does not build: $(git -C "$tree" log -1 --format=%s "$c")"
			tail -n 20 "$BUILD/bisect.log" | sed 's/^/#   /'
			return 1
		fi
		# The files a commit touches are compiled again; none may warn.
		if grep -q 'warning:' "$BUILD/bisect.log"; then
			echo "# commit $n builds with warnings: $(git -C "$tree" log -1 --format=%s "$c")"
			grep -A4 'warning:' "$BUILD/bisect.log" | head -n 20 | sed 's/^/#   /'
			return 1
		fi
		echo "$t" >>"$ok"
		echo "# $n $(git -C "$tree" log -1 --format=%s "$c"): builds"
	done
	# Leave the build matching HEAD again.
	"$TOP/scripts/build-kernel.sh" >/dev/null
}

# Warnings of `make W=1 kernel/sched/` at a commit, without line numbers
# (the series moves lines), one per line, sorted. OFF is a config option to
# turn off; LLVM=1 builds with Clang 19 instead of GCC (the VM config made
# again for that compiler).
w1_warnings() {
	local src=$1 obj=$2 off=${3:-} llvm=${4:-} cc=()
	[ -z "$llvm" ] || cc=(LLVM=-19 CC="ccache clang-19" HOSTCC="ccache clang-19")
	mkdir -p "$obj"
	cp "$BUILD/kbuild-vm/.config" "$obj/.config"
	[ -z "$off" ] || "$src/scripts/config" --file "$obj/.config" --disable "$off"
	kbuild_make "$src" "$obj" "${cc[@]}" -s olddefconfig >/dev/null
	[ -z "$off" ] || ! grep -q "^CONFIG_$off=y" "$obj/.config" || die "CONFIG_$off stayed on"
	[ -z "$llvm" ] || grep -q '^CONFIG_CC_IS_CLANG=y' "$obj/.config" || die "$obj is not configured for Clang"
	# Compile kernel/sched/ again every time: warnings are only printed then.
	rm -f "$obj"/kernel/sched/*.o
	kbuild_make "$src" "$obj" "${cc[@]}" W=1 -j"$(($(nproc) + 1))" kernel/sched/ >"$obj/w1.log" 2>&1 ||
		{ tail -n 20 "$obj/w1.log" | sed 's/^/#   /'; return 1; }
	{ grep -E 'warning:' "$obj/w1.log" || true; } |
		sed -E 's#^.*/?(kernel/[^:]*):[0-9]+:[0-9]+:#\1:#' | sort
}

w1() {
	local ok=$BUILD/w1-llvm-ok t wt
	t=$(check_key HEAD)
	touch "$ok"
	if grep -qx "$t" "$ok"; then
		echo "# W=1 kernel/sched/: checked before for this tree"
		return 0
	fi
	[ -f "$BUILD/kbuild-vm/.config" ] || die "build the VM kernel first (make kernel)"
	command -v clang-19 >/dev/null && command -v ld.lld-19 >/dev/null ||
		die "clang-19 or ld.lld-19 not found; run 'make deps' (installs clang-19, lld-19, llvm-19)"
	wt=$(base_worktree "$tree")
	# The config combinations the series has code for: the sis_scan
	# counters exist only with SCHEDSTATS; NUMA_IMB_PINNED needs NUMA.
	# Upstream builds the scheduler with Clang too: the VM config once
	# more with Clang 19 ("llvm").
	local off new fail=0 llvm what
	for off in "" SCHEDSTATS NUMA llvm; do
		llvm=
		[ "$off" != llvm ] || { llvm=1 off=; }
		what="VM config${off:+ less $off}${llvm:+, LLVM=-19}"
		w1_warnings "$wt" "$BUILD/kbuild-w1-base${off:+-no-$off}${llvm:+-llvm}" "$off" "$llvm" >"$BUILD/w1-base.txt" || return 1
		w1_warnings "$tree" "$BUILD/kbuild-w1${off:+-no-$off}${llvm:+-llvm}" "$off" "$llvm" >"$BUILD/w1-series.txt" || return 1
		new=$(comm -13 "$BUILD/w1-base.txt" "$BUILD/w1-series.txt")
		echo "# W=1 kernel/sched/, $what: $(wc -l <"$BUILD/w1-base.txt") warnings on the base, $(wc -l <"$BUILD/w1-series.txt") with the series"
		if [ -n "$new" ]; then
			echo "# new W=1 warnings:"
			echo "$new" | sed 's/^/#   /'
			fail=1
		fi
	done
	[ "$fail" = 0 ] || return 1
	echo "$t" >>"$ok"
}

# make series as a sender runs it, into a scratch directory: every patch and
# the cover letter are From: the sender, every patch ends with the sender's
# Signed-off-by, and no identity of the tree's commits that cannot receive
# mail (the placeholder series/ carries) is left anywhere in the mail. The
# sender is git's own test identity; the output is thrown away, so out/series
# only ever holds what `make series` wrote for a real sender.
mail() {
	local d name="A U Thor" email="author@example.com" p bad=0 id origin
	d=$(mktemp -d "${TMPDIR:-/tmp}/sp-series.XXXXXX")
	# shellcheck disable=SC2064
	cleanup_on_exit "rm -rf '$d'"
	SERIES_OUT=$d/series SERIES_TEST_SENDER=1 GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		"$TOP/scripts/mkseries.sh" || return 1
	for p in "$d"/series/*.patch; do
		grep -qxF "From: $name <$email>" "$p" || { echo "# $(basename "$p"): not From: the sender"; bad=1; }
		case $p in */0000-cover-letter.patch) continue ;; esac
		[ "$(grep '^Signed-off-by:' "$p" | tail -n1)" = "Signed-off-by: $name <$email>" ] ||
			{ echo "# $(basename "$p"): the last Signed-off-by is not the sender's"; bad=1; }
	done
	for id in $(git -C "$tree" log --format='%ae %ce%n%b' "$base..$head" |
		grep -oE '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+' | sort -u); do
		[ "$id" = "$email" ] && continue
		undeliverable "$id" || continue
		if grep -lF "$id" "$d"/series/*.patch; then
			echo "# the placeholder $id reached the mail (files above)"
			bad=1
		else
			echo "# placeholder $id: in no patch"
		fi
	done
	# Cc: as series/cc says: a patch copies the "all" addresses and those
	# its name matches and no other, the cover letter every address.
	python3 - "$TOP/series/cc" "$d"/series/*.patch <<'PY' || bad=1
import fnmatch, os, sys
rules = [l.strip().split('\t', 1) for l in open(sys.argv[1])
         if l.strip() and not l.startswith('#')]
bad = 0
for path in sys.argv[2:]:
    name = os.path.basename(path)
    head = open(path).read().split('\n\n', 1)[0]
    for pat, who in rules:
        want = name.startswith('0000-') or pat == 'all' or fnmatch.fnmatch(name, pat)
        if (who in head) != want:
            print('# %s: %s %s' % (name, who, 'not copied' if want else 'copied, unasked'))
            bad = 1
sys.exit(bad)
PY
	# base-commit: only for a base that exists outside this machine (one
	# with history); the history-less pinned base is named in the cover
	# letter instead.
	p=$d/series/0000-cover-letter.patch
	origin=$(base_origin "$tree")
	case $origin in
	history) grep -qx "base-commit: $base" "$p" || { echo "# the cover letter lacks base-commit: $base"; bad=1; } ;;
	*)
		! grep -q '^base-commit:' "$p" || { echo "# the cover letter gives base-commit: $base, which exists only here"; bad=1; }
		[ "$origin" != pinned ] || grep -q "^Based on Linux $(base_get VERSION) as Debian ships it" "$p" ||
			{ echo "# the cover letter does not name the pinned base"; bad=1; }
		;;
	esac
	[ "$bad" = 0 ] && echo "# $(ls "$d"/series | wc -l) files From: and signed off by $name <$email>, Cc: as series/cc says; the base named in the cover letter"
	return "$bad"
}

case ${1:-} in
checkpatch | bisect | w1 | maintainers | mail) "$1" ;;
*) die "usage: series-check.sh checkpatch|bisect|w1|maintainers|mail" ;;
esac
