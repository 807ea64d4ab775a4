#!/usr/bin/env bash
# check: quick, budget 30 s
# README.md's sample of make's output is the committed record's, abridged
# honestly: the first code block after "## What `make` prints" has at most
# 15 lines, none over 100 characters, and each line is a line of the
# record's report.txt (the record README links just before the block),
# with "..." standing for what was cut; README stays at most 125 lines.
# Fails on a made-up README whose sample has a line the report lacks, a
# changed figure, or a line over 100 characters.
. "$(dirname "$0")/../lib.sh"

# sample_check README ROOT: prints a line per problem; exit 1 when any
sample_check() {
	local readme=$1 root=$2 rec block line re bad=0 n=0
	rec=$(awk '/^## What `make` prints/ { f = 1 } f && /^```/ { exit } f' "$readme" |
		grep -o 'docs/results/[A-Za-z0-9_.-]*' | tail -n1)
	[ -n "$rec" ] && [ -f "$root/$rec/report.txt" ] ||
		{ echo "no record with a report.txt linked before the sample (got '$rec')"; return 1; }
	block=$(awk '/^## What `make` prints/ { f = 1 } f && /^```/ { if (in_) exit; in_ = 1; next } in_' "$readme")
	[ -n "$block" ] || { echo "no sample block after '## What \`make\` prints'"; return 1; }
	while IFS= read -r line; do
		n=$((n + 1))
		[ "${#line}" -le 100 ] || { echo "sample line $n has ${#line} characters, over 100: $line"; bad=1; }
		# The line as a regex: literal, "..." for any cut, trailing blanks free.
		re=$(sed -e 's/[][\.*^$(){}+?|/]/\\&/g' -e 's/\\\.\\\.\\\./.*/g' <<<"$line")
		grep -qE "^$re *\$" "$root/$rec/report.txt" ||
			{ echo "sample line $n is no line of $rec/report.txt: $line"; bad=1; }
	done <<<"$block"
	[ "$n" -le 15 ] || { echo "the sample has $n lines, over 15"; bad=1; }
	return $bad
}

out=$(sample_check "$TOP/README.md" "$TOP") || fail "README.md's sample of make's output:
$out"
lines=$(wc -l <"$TOP/README.md")
[ "$lines" -le 125 ] || fail "README.md has $lines lines, over 125: move detail to the pages it links"
echo "# README.md: $lines lines; its sample, $(awk '/^## What `make` prints/ { f = 1 } f && /^```/ { if (i) exit; i = 1; next } i' "$TOP/README.md" | wc -l) lines, is the record's"

t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir -p "$t/docs/results/r"
printf 'Runs:     12 a side (REPS, default 12)\nAmean migrations    7186.1667 ( 28.01%%)    5041.9167 ( 16.58%%)    29.84%%  0.0040 *\n' >"$t/docs/results/r/report.txt"
good='## What `make` prints\n\nfrom [docs/results/r](docs/results/r/):\n\n```\nRuns:     12 a side ...\nAmean migrations    7186.1667 ( 28.01%%) ...    29.84%%  0.0040 *\n```\n'
printf "$good" >"$t/README.md"
out=$(sample_check "$t/README.md" "$t") || fail "a true abridged sample failed: $out"
printf "${good/29.84/39.84}" >"$t/README.md"
out=$(sample_check "$t/README.md" "$t") && fail "a changed figure passed"
grep -q "sample line 2 is no line of docs/results/r/report.txt" <<<"$out" || fail "unexpected message: $out"
printf "${good/Runs:     12 a side .../Runs:     12 a side $(printf 'x%.0s' {1..90}) ...}" >"$t/README.md"
out=$(sample_check "$t/README.md" "$t") && fail "a line over 100 characters passed"
grep -q "over 100" <<<"$out" || fail "unexpected message: $out"
echo "# $(head -n1 <<<"$out")"
