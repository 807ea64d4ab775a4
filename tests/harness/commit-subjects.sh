#!/usr/bin/env bash
# check: quick, budget 30 s
# Commit subjects: every commit after BASE (below) on the checked-out
# branch has the subject `area: summary`, at most 72 characters, with the
# area one of CONTRIBUTING.md's table (the one list); a merge is a branch
# merged into main (git's "Merge branch 'NAME'", or with ": summary" after
# it), never main merged into a branch. BASE is 1913b32, the last commit whose subject broke the rule
# (26 areas were in use before, among them `results` beside `records`, and
# back-merges of main); the 16 after it on main at 46068a1 keep to it. In a shallow
# clone without BASE, the commits it has are checked.
# Fails on made-up subjects: a long one, an unknown area, no area, a
# back-merge.
. "$(dirname "$0")/../lib.sh"
BASE=1913b32f23feb971644856cfb10d7918a2293862

# areas: the list, from CONTRIBUTING.md's table.
areas() { sed -n 's/^| `\([A-Za-z]*\)` | .*/\1/p' "$TOP/CONTRIBUTING.md"; }
# bad_subject SUBJECT PARENTS: why SUBJECT breaks the rule, or nothing.
bad_subject() {
	local s=$1 parents=$2 a
	if [ "$parents" -gt 1 ]; then
		[[ $s =~ ^Merge\ branch\ \'([^\']+)\'(:\ [^\ ].*)?$ ]] && [ "${BASH_REMATCH[1]}" != main ] ||
			echo "a merge that is not a branch merged into main (\"Merge branch 'NAME'[: summary]\"; no back-merge of main)"
		[ "${#s}" -le 72 ] || echo "${#s} characters, more than 72"
		return
	fi
	[ "${#s}" -le 72 ] || echo "${#s} characters, more than 72"
	[[ $s =~ ^([A-Za-z]+):\ [^\ ] ]] || { echo "not 'area: summary'"; return; }
	a=${BASH_REMATCH[1]}
	grep -qx "$a" <<<"$AREAS" || echo "area '$a' is not in CONTRIBUTING.md's list: $(xargs <<<"$AREAS")"
}

AREAS=$(areas)
[ "$(wc -l <<<"$AREAS")" -ge 5 ] || fail "no list of areas in CONTRIBUTING.md's table: $AREAS"
git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 || { echo "# not a git checkout: no history to check"; exit 4; }
range=$BASE..HEAD
if ! git -C "$TOP" cat-file -e "$BASE^{commit}" 2>/dev/null; then
	[ "$(git -C "$TOP" rev-parse --is-shallow-repository)" = true ] ||
		fail "the base commit $BASE is not in this history; was it rewritten? Set BASE in $0 to the new last commit before the rule"
	range=HEAD
fi
bad=$(git -C "$TOP" log --format='%h%x09%p%x09%s' "$range" | while IFS=$'\t' read -r h p s; do
	why=$(bad_subject "$s" "$(wc -w <<<"$p")")
	[ -z "$why" ] || echo "$h \"$s\": $why"
done)
[ -z "$bad" ] || fail "commit subjects that break CONTRIBUTING.md's rule:
$bad"
echo "# $(git -C "$TOP" rev-list --count "$range") commits since $(git -C "$TOP" rev-parse --short "$BASE" 2>/dev/null || echo the shallow boundary): area: summary, <= 72 characters"

# Made-up subjects.
for s in "tests: $(printf 'x%.0s' {1..70})" "results: the ladder" "Review fixes" "wip"; do
	[ -n "$(bad_subject "$s" 1)" ] || fail "a bad subject passed: $s"
done
[ -n "$(bad_subject "Merge branch 'main' into repo" 2)" ] || fail "a back-merge of main passed"
[ -n "$(bad_subject "merge main" 2)" ] || fail "a back-merge of main passed"
[ -z "$(bad_subject "Merge branch 'repo'" 2)" ] || fail "a branch merged into main failed"
[ -z "$(bad_subject "Merge branch 'issue50': KCSAN scoped by line" 2)" ] || fail "a merge with a summary failed"
[ -n "$(bad_subject "Merge branch 'main' into repo: catch up" 2)" ] || fail "a back-merge of main passed"
[ -z "$(bad_subject "records: index every record" 1)" ] || fail "a good subject failed"
echo "# $(bad_subject "results: the ladder" 1)"
