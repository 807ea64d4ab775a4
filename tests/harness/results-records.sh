#!/usr/bin/env bash
# check: quick, budget 60 s
# Every measured number the series cites has a committed record, and every
# record is indexed and cited. docs/results/README.md indexes the records,
# one table row each: | [NAME](NAME/) | what | CITER, ... | for a record
# something cites now, | [NAME](superseded/NAME/) | what | who cited it |
# for one under docs/results/superseded/ (that file says how to add a row).
# Checked:
# - a changelog (series/NNNN-*.patch, above its ---) or the cover letter
#   that reports an emulator measurement (it names QEMU TCG, as every such
#   figure must be labelled) is a citer of some record in the index;
# - every record directory has exactly one row, and every row a directory;
# - a record outside superseded/ has a citer, and each citer exists:
#   series/NNNN a patch, series/cover-letter, or a file of the repository,
#   which must name the record unless it is mailed (series/, kernel/,
#   tools/, Documentation/ name no record);
# - no file names a superseded record by its old path (NAME without
#   superseded/), and no superseded/NAME is named that does not exist;
# - each record's README.md holds the command it ran (make bench,
#   scripts/vm.sh or a "Command:" line), the kernel tree's HEAD (a commit
#   hash) and the record at least one non-empty raw data file (*.raw); a
#   series/NNNN on its "Cited by" line exists.
#
# The checker runs on the repository, which must pass, and on made-up
# copies, each with one mistake, which must fail with its message.
. "$(dirname "$0")/../lib.sh"

# records ROOT: prints a line per problem; exit 1 when there is any
records() {
	local root=$1 res=$1/docs/results f key rec bad=0 name target what cited c
	local idx=$res/README.md rows
	[ -f "$idx" ] || { echo "no index: docs/results/README.md"; return 1; }
	# The rows: "NAME<TAB>TARGET<TAB>WHAT<TAB>CITED".
	rows=$(sed -n 's/^| \[\([^]]*\)\](\([^)]*\)) | \(.*\) |\(.*\)|$/\1\t\2\t\3\t\4/p' "$idx")
	declare -A live=() gone=() seen=()
	while IFS=$'\t' read -r name target what cited; do
		[ -n "$name" ] || continue
		[ -z "${seen[$name]:-}" ] || { echo "index: $name has two rows"; bad=1; }
		seen[$name]=1
		case $target in
		"$name/") live[$name]=1 ;;
		"superseded/$name/") gone[$name]=1 ;;
		*) echo "index: $name links to $target, not $name/ or superseded/$name/"; bad=1; continue ;;
		esac
		[ -f "$res/$target/README.md" ] ||
			{ echo "index: $name has a row but no record docs/results/${target}README.md"; bad=1; }
		[ -n "${live[$name]:-}" ] || continue
		[ -n "${cited// /}" ] || { echo "index: $name is cited by nothing; move it to superseded/"; bad=1; }
		IFS=, read -ra c <<<"$cited"
		for key in "${c[@]}"; do
			key=${key# } key=${key% }
			case $key in
			series/cover-letter) [ -f "$root/$key" ] ;;
			series/[0-9][0-9][0-9][0-9]) compgen -G "$root/$key-*.patch" >/dev/null ;;
			*) [ -f "$root/$key" ] ;;
			esac || { echo "index: $name is cited by $key, which does not exist"; bad=1; continue; }
			case $key in
			series/* | kernel/* | tools/* | Documentation/*) ;;
			*) grep -qF "$name" "$root/$key" ||
				{ echo "index: $name is cited by $key, which does not name it"; bad=1; } ;;
			esac
		done
	done <<<"$rows"
	for rec in "$res"/*/README.md "$res"/superseded/*/README.md; do
		[ -f "$rec" ] || continue
		local d=${rec%/README.md} n
		name=$(basename "$d")
		case $d in
		"$res/superseded/$name") [ -n "${gone[$name]:-}" ] ;;
		*) [ "$name" = superseded ] || [ -n "${live[$name]:-}" ] ;;
		esac || { echo "${d#"$root"/}: no row of its own in docs/results/README.md"; bad=1; }
		[ "$name" != superseded ] || continue
		grep -qE 'make bench|scripts/vm\.sh|Command:' "$rec" ||
			{ echo "$d: README.md gives no command (make bench, scripts/vm.sh or Command:)"; bad=1; }
		grep -qE '\b[0-9a-f]{7,40}\b' "$rec" ||
			{ echo "$d: README.md names no commit (the kernel tree's HEAD)"; bad=1; }
		n=$(find "$d" -name '*.raw' -size +0 | wc -l)
		[ "$n" -gt 0 ] || { echo "$d: no raw data (*.raw)"; bad=1; }
		for key in $(grep '^Cited by' "$rec" | grep -oE 'series/([0-9]{4}|cover-letter)'); do
			case $key in
			series/cover-letter) [ -f "$root/$key" ] ;;
			*) compgen -G "$root/$key-*.patch" >/dev/null ;;
			esac || { echo "$d: cited by $key, which does not exist"; bad=1; }
		done
	done
	for f in "$root"/series/[0-9][0-9][0-9][0-9]-*.patch "$root"/series/cover-letter; do
		[ -f "$f" ] || continue
		case $f in
		*/cover-letter) key=series/cover-letter ;;
		*) key=series/$(basename "$f" | cut -c1-4) ;;
		esac
		# the changelog: a patch's text up to its first ---, the whole cover letter
		awk '/^---$/ { exit } { print }' "$f" | grep -q 'TCG' || continue
		cut -f1,2,4 <<<"$rows" | grep -v $'\tsuperseded/' | cut -f3 | tr ',' '\n' | sed 's/^ *//; s/ *$//' |
			grep -qx "$key" ||
			echo "$key cites a TCG measurement, but no record's row in docs/results/README.md names it"
	done | grep . && bad=1
	# Mentions: a superseded record by its old path, a superseded/NAME that is not.
	local text
	text=$(cd "$root" && find . \( -path ./.git -o -path ./build -o -path ./out -o -path ./results \) -prune -o \
		-type f ! -name '*.raw' ! -name '*.csv' ! -name '*.json' -print0 |
		xargs -0 -r grep -Il -e '20[0-9][0-9]-' 2>/dev/null)
	for name in "${!gone[@]}"; do
		for f in $text; do
			f=${f#./}
			case $f in docs/results/README.md | docs/results/superseded/"$name"/*) continue ;; esac
			grep -qP "(?<![/A-Za-z0-9-])(docs/results/)?\Q$name\E(?![A-Za-z0-9-])" "$root/$f" &&
				{ echo "$f names $name, which is now superseded/$name"; bad=1; }
		done
	done
	for f in $text; do
		[ "$f" != ./tests/harness/results-records.sh ] || continue # its made-up records
		for name in $(grep -oP 'superseded/\K20[0-9]{2}-[0-9]{2}-[0-9]{2}-[A-Za-z0-9-]*[A-Za-z0-9]' "$root/${f#./}" | sort -u); do
			[ -n "${gone[$name]:-}" ] || { echo "${f#./} names superseded/$name, which is no superseded record"; bad=1; }
		done
	done
	return $bad
}

out=$(records "$TOP") || fail "records missing, unindexed or uncited:
$out"
echo "# records checked: $(ls -d "$TOP"/docs/results/*/ | grep -vc /superseded/$) cited, $(ls -d "$TOP"/docs/results/superseded/*/ 2>/dev/null | wc -l) superseded"

# Made-up copies, one mistake each.
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
# want MESSAGE: records "$t" must fail and print MESSAGE.
want() {
	local out
	out=$(records "$t") && fail "passed, but should have found: $1"
	grep -qF -- "$1" <<<"$out" || fail "want '$1', got: $out"
}
hdr='| record | what | cited by |
| --- | --- | --- |'
mkdir -p "$t/series" "$t/docs/results/2026-01-01-r1" "$t/docs/results/superseded/2026-01-01-old"
printf 'Subject: x\n\nOn QEMU TCG it was 5%% faster.\n---\n' >"$t/series/0001-x.patch"
printf 'no numbers\n' >"$t/series/cover-letter"
printf '# r1\n\nCited by series/0001.\n\nCommand: `make bench SETS=x`, HEAD abc1234.\n' >"$t/docs/results/2026-01-01-r1/README.md"
cp "$t/docs/results/2026-01-01-r1/README.md" "$t/docs/results/superseded/2026-01-01-old/README.md"
echo "A migrations 1" >"$t/docs/results/2026-01-01-r1/x.raw"
echo "A migrations 1" >"$t/docs/results/superseded/2026-01-01-old/x.raw"
printf '%s\n' "$hdr" '| [2026-01-01-r1](2026-01-01-r1/) | a run | series/0001 |' "$hdr" \
	'| [2026-01-01-old](superseded/2026-01-01-old/) | an old run | issue 1 |' >"$t/docs/results/README.md"
out=$(records "$t") || fail "a complete made-up repository failed: $out"

cp -r "$t" "$t.good"
reset() { rm -rf "$t" && cp -r "$t.good" "$t"; }
cleanup_on_exit 'rm -rf "$t.good"'

sed -i 's/ series\/0001 |$/ |/' "$t/docs/results/README.md"
want "index: 2026-01-01-r1 is cited by nothing"
want "series/0001 cites a TCG measurement, but no record's row"
reset
sed -i 's/ series\/0001 |$/ README.md |/' "$t/docs/results/README.md"
echo "nothing here" >"$t/README.md"
want "index: 2026-01-01-r1 is cited by README.md, which does not name it"
reset
sed -i 's/ series\/0001 |$/ series\/0002 |/' "$t/docs/results/README.md"
want "index: 2026-01-01-r1 is cited by series/0002, which does not exist"
reset
mkdir "$t/docs/results/2026-01-02-r2" && cp "$t/docs/results/2026-01-01-r1/"* "$t/docs/results/2026-01-02-r2/"
want "docs/results/2026-01-02-r2: no row of its own"
reset
echo '| [2026-01-03-r3](2026-01-03-r3/) | a run | series/0001 |' >>"$t/docs/results/README.md"
want "index: 2026-01-03-r3 has a row but no record"
reset
rm "$t/docs/results/2026-01-01-r1/x.raw"
want "no raw data"
reset
echo "see 2026-01-01-old" >>"$t/docs/results/2026-01-01-r1/README.md"
want "docs/results/2026-01-01-r1/README.md names 2026-01-01-old, which is now superseded/2026-01-01-old"
reset
echo "see superseded/2026-01-01-r1" >"$t/notes.md"
want "notes.md names superseded/2026-01-01-r1, which is no superseded record"
echo "# the index's checks failed on each planted mistake"
