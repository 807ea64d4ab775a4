#!/usr/bin/env bash
# `make series`: the mail-ready series in out/series/ from build/linux:
# 0000-cover-letter.patch (text from series/cover-letter, the cost of the
# series in vmlinux by bloat-o-meter, base-commit:) and one patch per commit,
# new files included. Then checks that `git am` of it onto a clean base gives
# exactly the tree of build/linux.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$BUILD/linux
out=$TOP/out/series
[ -d "$tree/.git" ] || die "no build/linux; run 'make tree' first"
base=$(git -C "$tree" rev-parse refs/sp/base)
head=$(git -C "$tree" rev-parse HEAD)

# vmlinux with and without the series, for bloat-o-meter.
"$TOP/scripts/build-kernel.sh" >/dev/null
"$TOP/scripts/build-kernel.sh" "$(base_worktree "$tree")" "$BUILD/kbuild-base" >/dev/null
bloat=$("$tree/scripts/bloat-o-meter" "$BUILD/kbuild-base/vmlinux" "$BUILD/kbuild-vm/vmlinux")

tmp=$(mktemp -d "$BUILD/series.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git -C "$tree" format-patch -q --cover-letter --base="$base" --no-signature \
	-o "$tmp/out" "$base..$head"
subject=$(head -n1 "$TOP/series/cover-letter")
cover=$(ls "$tmp"/out/0000-*.patch)
python3 - "$cover" "$TOP/series/cover-letter" "$subject" "$bloat" <<'PY'
import sys
cover, src, subject, bloat = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
text = open(src).read().split('\n', 1)[1].strip('\n')
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

# git am of the result onto a clean base must give the same tree.
git clone -q --shared --no-checkout "$tree" "$tmp/am"
git -C "$tmp/am" checkout -q --detach "$base"
git -C "$tmp/am" -c user.name=check -c user.email=check@localhost am -q $(ls "$tmp"/out/*.patch | grep -v /0000-cover-letter) ||
	die "git am of out/series onto the base failed"
[ "$(git -C "$tmp/am" rev-parse 'HEAD^{tree}')" = "$(git -C "$tree" rev-parse 'HEAD^{tree}')" ] ||
	die "git am of out/series gives a different tree than build/linux"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$tmp/out" "$out"
note "out/series: $(ls "$out" | wc -l) files; git am onto $(git -C "$tree" log -1 --format=%s "$base") gives build/linux"
