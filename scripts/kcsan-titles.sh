#!/usr/bin/env bash
# The KCSAN reports of a run, title by title, against the base reference:
#
#   kcsan-titles.sh [-b BASE_LOG] SERIES_LOG
#
# prints one row per report title: how many times the base kernel's console
# (BASE_LOG, the same load on the base built the same way; stress.sh -b)
# and the series kernel's (SERIES_LOG) printed it, and whether it is the
# series', by console-check.sh's scope of the series' console: "yes" when a
# report of that title is at a series line (KCSAN_LINES, KCSAN_VMLINUX,
# FADDR2LINE, KCSAN_FRAMES) or, without line info, in a series function
# (KCSAN_SCOPE); "?" when no scope is given. Titles are compared without
# their offsets ("update_sd_lb_stats+0x25f/0xf42" is "update_sd_lb_stats"):
# the two kernels' code differs, and so do the offsets. Rows by series count,
# then base count; "-" for the base without -b. A title the base prints too
# is a race the series did not bring, unless the series' row says "yes".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base=
if [ "${1:-}" = -b ]; then
	[ $# -ge 2 ] || die "usage: kcsan-titles.sh [-b BASE_LOG] SERIES_LOG"
	base=$2
	shift 2
fi
[ $# = 1 ] || die "usage: kcsan-titles.sh [-b BASE_LOG] SERIES_LOG"
series=$1
for f in "$series" ${base:+"$base"}; do
	[ -r "$f" ] || die "kcsan-titles: $f: no such file"
done

t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
# Report titles of a console, one per report, offsets dropped.
titles() {
	tr -d '\r' <"$1" | sed -n 's/^.*\(BUG: KCSAN: .*\)$/\1/p' | sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+//g'
}
scope=none
: >"$t/verdicts"
if [ -n "${KCSAN_LINES:-}${KCSAN_SCOPE:-}" ]; then
	rc=0
	KCSAN_REPORTS=$t/verdicts "$TOP/scripts/console-check.sh" "$series" >/dev/null 2>"$t/err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$t/err" >&2; die "kcsan-titles: console-check.sh could not judge $series (exit $rc)"; }
	scope=$(sed -n "s/^console-check: KCSAN scope: the series' \([a-z]*\).*/\1/p" "$t/err" | tail -n 1)
	grep -v '^  \|distinct KCSAN report' "$t/err" >&2 || true
fi
sed -n 's/^IN //p' "$t/verdicts" | sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+//g' | sort -u >"$t/ours"
titles "$series" >"$t/series"
if [ -n "$base" ]; then titles "$base" >"$t/base"; else : >"$t/base"; fi
echo "# KCSAN report titles, offsets dropped: count on the base (${base:-not run}), on the series ($series)"
echo "# ours: the series' by its $scope scope (console-check.sh; none: not judged)"
printf '# %6s %6s %-4s %s\n' base series ours title
awk -v has_base="${base:+1}" -v scope="$scope" '
	FILENAME == ARGV[1] { ours[$0] = 1; next }
	FILENAME == ARGV[2] { b[$0]++; seen[$0] = 1; next }
	{ s[$0]++; seen[$0] = 1 }
	END {
		for (k in seen)
			printf "%d\t%d\t  %6s %6d %-4s %s\n", s[k], b[k], has_base ? b[k] + 0 : "-", s[k],
				scope == "none" ? "?" : (k in ours) ? "yes" : "no", k
	}' "$t/ours" "$t/base" "$t/series" | sort -t$'\t' -k1,1nr -k2,2nr -k3 | cut -f 3-
