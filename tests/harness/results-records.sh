#!/usr/bin/env bash
# check: quick, budget 60 s
# Every measured number the series cites has a committed record. A changelog
# (series/NNNN-*.patch, above its ---) or the cover letter that reports an
# emulator measurement (it names QEMU TCG, as every such figure must be
# labelled) is named on the "Cited by" line of a docs/results/*/README.md,
# and that record holds the command it ran (make bench, scripts/vm.sh or a
# "Command:" line), the kernel tree's HEAD (a commit hash) and at least one
# non-empty raw data file (*.raw). A record cited by a patch that no longer exists is stale.
#
# The checker runs on the repository, which must pass, and on two made-up
# copies, which must fail: a changelog citing a TCG figure with no record, and
# a record without its raw data.
. "$(dirname "$0")/../lib.sh"

# records ROOT: prints a line per problem; exit 1 when there is any
records() {
	local root=$1 f key rec bad=0
	for f in "$root"/series/[0-9][0-9][0-9][0-9]-*.patch "$root"/series/cover-letter; do
		[ -f "$f" ] || continue
		case $f in
		*/cover-letter) key=series/cover-letter ;;
		*) key=series/$(basename "$f" | cut -c1-4) ;;
		esac
		# the changelog: a patch's text up to its first ---, the whole cover letter
		awk '/^---$/ { exit } { print }' "$f" | grep -q 'TCG' || continue
		rec=$(grep -l "^Cited by.*$key\b" "$root"/docs/results/*/README.md 2>/dev/null | head -n1)
		if [ -z "$rec" ]; then
			echo "$key cites a TCG measurement, but no docs/results/*/README.md names it on its 'Cited by' line"
			bad=1
		fi
	done
	for rec in "$root"/docs/results/*/README.md; do
		[ -f "$rec" ] || continue
		local d=${rec%/README.md} n
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
	return $bad
}

out=$(records "$TOP") || fail "records missing or incomplete:
$out"

t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir -p "$t/series" "$t/docs/results/r1"
printf 'Subject: x\n\nOn QEMU TCG it was 5%% faster.\n---\n' >"$t/series/0001-x.patch"
printf 'no numbers\n' >"$t/series/cover-letter"
out=$(records "$t") && fail "a TCG figure without a record passed"
echo "$out" | grep -q "series/0001 cites a TCG measurement" || fail "unexpected message: $out"

printf '# r1\n\nCited by series/0001.\n\nCommand: `make bench SETS=x`, HEAD abc1234.\n' >"$t/docs/results/r1/README.md"
out=$(records "$t") && fail "a record without raw data passed"
echo "$out" | grep -q "no raw data" || fail "unexpected message: $out"
echo "A migrations 1" >"$t/docs/results/r1/x.raw"
out=$(records "$t") || fail "a complete record failed: $out"
echo "# records checked: $(ls -d "$TOP"/docs/results/*/ | wc -l) in docs/results"
