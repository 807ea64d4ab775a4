#!/usr/bin/env bash
# `make series`: the mail-ready series in out/series/ from build/linux:
# 0000-cover-letter.patch (text from series/cover-letter, the cost of the
# series in vmlinux by bloat-o-meter, the base: base-commit: for a tree with
# history, the Debian release for the pinned base) and one patch per commit,
# new files included. Then checks that `git am` of it onto a clean base gives
# exactly the tree of build/linux.
#
# The patches are signed off by whoever mails them: the git identity
# (user.name, user.email; GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL override it).
# A commit whose author has no deliverable address (a placeholder under a
# reserved domain such as .example, as series/ carries) is authored by the
# sender instead, and its placeholder Signed-off-by dropped; a real author
# keeps authorship and Signed-off-by, and the sender's follows. A placeholder
# named in MAINTAINERS (M:) is replaced by the sender, who proposes the entry;
# nothing else of the tree changes. Without an identity, or with a
# placeholder one, nothing is written.
#   SERIES_OUT=DIR writes there instead of out/series.
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/base.sh"
. "$TOP/scripts/lib/kbuild.sh"
. "$TOP/scripts/lib/mail.sh"

tree=$BUILD/linux
out=${SERIES_OUT:-$TOP/out/series}
sender_name=${GIT_AUTHOR_NAME:-$(git -C "$TOP" config user.name || true)}
sender_email=${GIT_AUTHOR_EMAIL:-$(git -C "$TOP" config user.email || true)}
[ -n "$sender_name" ] && [ -n "$sender_email" ] ||
	die "make series signs the patches off as you, and git has no identity here; run
  git config --global user.name 'Your Name'; git config --global user.email you@your.domain
(or set GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL)"
# SERIES_TEST_SENDER=1 lets a reserved address sign: make check's own run,
# whose output is thrown away.
[ "${SERIES_TEST_SENDER:-}" = 1 ] || ! undeliverable "$sender_email" ||
	die "git identity '$sender_name <$sender_email>' is a placeholder ($sender_email cannot receive mail), not someone who can sign off the patches; set git config user.name and user.email to your own (or GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL)"
sender="$sender_name <$sender_email>"
[ -d "$tree/.git" ] || die "no build/linux; run 'make tree' first"
base=$(git -C "$tree" rev-parse refs/sp/base)
head=$(git -C "$tree" rev-parse HEAD)

# vmlinux with and without the series, for bloat-o-meter.
"$TOP/scripts/build-kernel.sh" >/dev/null
"$TOP/scripts/build-kernel.sh" "$(base_worktree "$tree")" "$BUILD/kbuild-base" >/dev/null
bloat=$("$tree/scripts/bloat-o-meter" "$BUILD/kbuild-base/vmlinux" "$BUILD/kbuild-vm/vmlinux")

tmp=$(mktemp -d "$BUILD/series.XXXXXX")
cleanup_on_exit 'rm -rf "$tmp"'
# The commits again, signed off by the sender, in a scratch clone.
git clone -q --shared --bare "$tree" "$tmp/sign.git"
export GIT_COMMITTER_NAME=$sender_name GIT_COMMITTER_EMAIL=$sender_email
# The MAINTAINERS entry names the placeholder as M: too: the sender, who
# proposes the entry, takes its place there.
sender_sed=$(printf '%s' "$sender" | sed 's/[&|\\]/\\&/g')
placeholders=$(git -C "$tree" log --format='%an <%ae>' "$base..$head" | sort -u |
	while read -r id; do e=${id##*<}; undeliverable "${e%>}" && echo "$id"; done || true)
sign_tree() { # COMMIT: its tree, with the placeholders in MAINTAINERS replaced
	local c=$1 blob new id
	blob=$(git -C "$tmp/sign.git" rev-parse -q --verify "$c:MAINTAINERS" 2>/dev/null) || { git -C "$tmp/sign.git" rev-parse "$c^{tree}"; return; }
	new=$(git -C "$tmp/sign.git" cat-file blob "$blob" | {
		local args=()
		while read -r id; do
			[ -n "$id" ] && args+=(-e "s|$(printf '%s' "$id" | sed 's/[][\\.*^$|]/\\&/g')|$sender_sed|g")
		done <<<"$placeholders"
		if [ ${#args[@]} -gt 0 ]; then sed "${args[@]}"; else cat; fi
	} | git -C "$tmp/sign.git" hash-object -w --stdin)
	[ "$new" = "$blob" ] && { git -C "$tmp/sign.git" rev-parse "$c^{tree}"; return; }
	GIT_INDEX_FILE=$tmp/index git -C "$tmp/sign.git" read-tree "$c"
	GIT_INDEX_FILE=$tmp/index git -C "$tmp/sign.git" update-index --cacheinfo "100644,$new,MAINTAINERS"
	GIT_INDEX_FILE=$tmp/index git -C "$tmp/sign.git" write-tree
}
parent=$base
for c in $(git -C "$tree" rev-list --reverse "$base..$head"); do
	author_name=$(git -C "$tree" log -1 --format=%an "$c")
	author_email=$(git -C "$tree" log -1 --format=%ae "$c")
	msg=$(git -C "$tree" log -1 --format=%B "$c")
	if undeliverable "$author_email"; then
		msg=$(printf '%s\n' "$msg" | grep -vxF "Signed-off-by: $author_name <$author_email>")
		author_name=$sender_name author_email=$sender_email
	fi
	# The sender's Signed-off-by goes last, unless it is last already.
	msg=$(printf '%s\n' "$msg" | git interpret-trailers --where end \
		--if-exists addIfDifferentNeighbor --trailer "Signed-off-by: $sender")
	signed=$(sign_tree "$c")
	parent=$(GIT_AUTHOR_NAME=$author_name GIT_AUTHOR_EMAIL=$author_email \
		GIT_AUTHOR_DATE=$(git -C "$tree" log -1 --format=%aD "$c") \
		git -C "$tmp/sign.git" commit-tree "$signed" -p "$parent" -m "$msg")
done
# Signing may change nothing but the MAINTAINERS lines of placeholders.
changed=$(git -C "$tmp/sign.git" diff --name-only "$head" "$parent")
[ -z "$changed" ] || [ "$changed" = MAINTAINERS ] ||
	die "signing the series changed more than MAINTAINERS: $changed"
# base-commit: names the base for b4 and the 0-day bot, which fetch it from
# a public tree. A KSRC= tree with history has such a commit. The pinned
# base is a tarball imported without history: its commit exists only here,
# so it is not given, and the cover letter names the release instead. A
# history-less tree of the user's (a shallow clone, an imported tarball)
# is named neither way: nothing says what it is.
baseopt=() basetext=""
case $(base_origin "$tree") in
history) baseopt=(--base="$base") ;;
pinned) basetext="Based on Linux $(base_get VERSION) as Debian ships it ($(base_get PACKAGE) $(base_get PKG_VERSION), the release with Debian's patches applied), imported without history, so no base-commit: is given." ;;
*) note "the base $(git -C "$tree" rev-parse --short "$base") has no history: no base-commit: in the cover letter; name the base in series/cover-letter" ;;
esac
# An RFC: the switches are an instrument for measuring, not a proposal to
# merge as they stand ([RFC PATCH 00/14], [RFC PATCH 01/14], ...).
git -C "$tmp/sign.git" format-patch -q --cover-letter "${baseopt[@]}" --no-signature \
	--subject-prefix='RFC PATCH' -o "$tmp/out" "$base..$parent"
# Nothing of a placeholder identity may reach the mail: every address in
# it (headers, folded or not, trailers, MAINTAINERS lines) must be one that
# can receive mail, the test sender's aside.
bad=$(grep -ohE '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+' "$tmp"/out/*.patch | sort -u |
	while read -r a; do
		[ "$a" = "$sender_email" ] && continue
		! undeliverable "$a" || echo "$a"
	done)
[ -z "$bad" ] || die "addresses that cannot receive mail are still in the series: $bad"
subject=$(head -n1 "$TOP/series/cover-letter")
cover=$(ls "$tmp"/out/0000-*.patch)
python3 - "$cover" "$TOP/series/cover-letter" "$subject" "$bloat" "$basetext" <<'PY'
import sys, textwrap
cover, src, subject, bloat, basetext = sys.argv[1:6]
text = open(src).read().split('\n', 1)[1].strip('\n')
if basetext:
    text += '\n\n' + textwrap.fill(basetext, 72)
text += ('\n\nCost in vmlinux with every default untouched (VM config, x86_64,'
         ' scripts/bloat-o-meter base -> series):\n\n'
         + '\n'.join('  ' + l for l in bloat.splitlines()))
# The VM config builds the KUnit suite in; say how much of the total it is,
# so that the cost of the series itself can be read off.
import re
kunit = 0
for l in bloat.splitlines():
    m = re.match(r'(\S+)\s+\S+\s+\S+\s+([+-]\d+)$', l)
    if m and re.search(r'(_test|_cases|_gen_params|_test_suite)$', m.group(1)):
        kunit += int(m.group(2))
m = re.search(r'up/down: \S+ \(([+-]?\d+)\)', bloat)
if m and kunit:
    total = int(m.group(1))
    text += ('\n\nOf the %+d bytes, %+d are the KUnit suite (the *_test, *_cases and'
             ' *_gen_params\nrows), built only with CONFIG_SCHED_PLACEMENT_KUNIT_TEST;'
             ' the series itself costs\n%+d bytes.' % (total, kunit, total - kunit))
c = open(cover).read()
c = c.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', text)
open(cover, 'w').write(c)
PY

# The Cc: headers, from series/cc: each patch its "all" addresses and
# those whose glob matches its file name, the cover letter every address.
python3 - "$TOP/series/cc" "$tmp"/out/*.patch <<'PY'
import fnmatch, os, sys
rules = []
for n, line in enumerate(open(sys.argv[1]), 1):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    pat, _, who = line.partition('\t')
    if not who.strip():
        sys.exit('series/cc:%d: want PATCHES<TAB>ADDRESS, got: %s' % (n, line))
    rules.append((pat, who.strip()))
for path in sys.argv[2:]:
    name = os.path.basename(path)
    cover = name.startswith('0000-')
    cc = []
    for pat, who in rules:
        if (cover or pat == 'all' or fnmatch.fnmatch(name, pat)) and who not in cc:
            cc.append(who)
    if not cc:
        continue
    text = open(path).read()
    head, sep, body = text.partition('\n\n')
    head += '\nCc: ' + ',\n    '.join(cc)
    open(path, 'w').write(head + sep + body)
PY

# git am of the result onto a clean base must give the same tree.
git clone -q --shared --no-checkout "$tree" "$tmp/am"
git -C "$tmp/am" checkout -q --detach "$base"
git -C "$tmp/am" -c user.name=check -c user.email=check@localhost am -q $(ls "$tmp"/out/*.patch | grep -v /0000-cover-letter) ||
	die "git am of out/series onto the base failed"
[ "$(git -C "$tmp/am" rev-parse 'HEAD^{tree}')" = "$(git -C "$tmp/sign.git" rev-parse "$parent^{tree}")" ] ||
	die "git am of out/series gives a different tree than build/linux (signed)"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$tmp/out" "$out"
note "${out#$TOP/}: $(ls "$out" | wc -l) files, signed off by $sender; git am onto $(git -C "$tree" log -1 --format=%s "$base") gives build/linux"
