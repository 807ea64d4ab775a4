#!/usr/bin/env bash
# The plots of a results record, drawn again from its text (make replot).
#
#   replot.sh [-t PLOT_TITLE_PREFIX] RECORD
#
# A record (docs/results/NAME) keeps each A/B set as SET.raw and SET.meta, not
# its plots. For every directory under RECORD (RECORD included) that holds
# such pairs, this runs bench/report.sh on a copy of the pairs and puts what
# it drew beside them: SET.png (every run) and sweep-FAMILY.png (a family of
# counts). The record's text (SET.csv, results.json, report.txt) is left as
# committed; the PNGs are ignored by git (docs/results/.gitignore).
# The title prefix is the run's preset, as make bench gave it: -t, else the
# "preset NAME" of the report.txt beside the sets or at RECORD's top, else
# the end of RECORD's name (2026-12-06-wakeup-ladder-zen3: zen3) when that is
# a preset of scripts/presets, else none.
# STATS=PATH and GNUPLOT=PATH as for report.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The preset parser, preset_get (host side: make replot).
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
usage="usage: replot.sh [-t PLOT_TITLE_PREFIX] RECORD (a directory of docs/results)"
prefix=
while getopts "t:" o; do
	case $o in
	t) prefix=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "$usage" >&2; exit 2; }
rec=${1%/}
[ -d "$rec" ] || { echo "error: $rec is not a directory; give RECORD=docs/results/NAME" >&2; exit 2; }

# preset_of DIR: the preset of the sets in DIR (above).
preset_of() {
	local f p
	for f in "$1/report.txt" "$rec/report.txt"; do
		[ -f "$f" ] || continue
		sed -n 's/^Topology: *preset \([A-Za-z0-9_-]*\).*/\1/p' "$f" | head -n1 | grep . && return
	done
	p=$(basename "$rec")
	p=${p##*-}
	preset_get "$p" >/dev/null && echo "$p"
	return 0
}

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
drawn=0 bad=0
while IFS= read -r dir; do
	sets=()
	for m in "$dir"/*.meta; do
		s=$(basename "$m" .meta)
		[ -s "$dir/$s.raw" ] && sets+=("$s")
	done
	[ ${#sets[@]} -gt 0 ] || continue
	rm -rf "$t/sets" && mkdir "$t/sets"
	for s in "${sets[@]}"; do cp "$dir/$s.raw" "$dir/$s.meta" "$t/sets/"; done
	p=${prefix:-$(preset_of "$dir")}
	# report.sh's tables go to the log; a set without a table is named there.
	"$here/report.sh" ${p:+-t "$p"} "$t/sets" "${sets[@]}" >"$t/log" 2>&1 ||
		{ bad=1; grep '^error' "$t/log" | sed "s|^error: |error: $dir: |" >&2; }
	for png in "$t/sets"/*.png; do
		[ -e "$png" ] || continue
		cp "$png" "$dir/"
		echo "$dir/$(basename "$png")"
		drawn=$((drawn + 1))
	done
done < <(find "$rec" -name '*.meta' -printf '%h\n' | sort -u)
[ "$drawn" -gt 0 ] || { echo "error: $rec holds no SET.meta with its SET.raw: nothing to plot" >&2; exit 1; }
exit "$bad"
