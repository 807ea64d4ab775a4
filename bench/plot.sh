#!/usr/bin/env bash
# One PNG of an A/B run: a panel per metric, every run's value for side A and
# side B in run order (interleaved runs, so drift shows as a trend in both),
# with each side's mean as a line.
#
#   plot.sh RAW OUT.png [TITLE] [LABEL_A] [LABEL_B]
#
# RAW holds "SIDE METRIC VALUE" lines as bench/ab-run.sh prints them.
#
#   plot.sh -s OUT.png TITLE LABEL_A LABEL_B COUNT:CSV...
#
# A sweep: a panel per metric, each side's mean against COUNT (hackbench
# groups, tbench clients), one standard deviation as error bars, from the
# tables (bench/stats -c) of the sets of one family. One legend per figure.
# GNUPLOT=PATH names the gnuplot binary.
set -euo pipefail
usage="usage: plot.sh RAW OUT.png [TITLE] [LABEL_A] [LABEL_B], or plot.sh -s OUT.png TITLE LABEL_A LABEL_B COUNT:CSV..."
sweep=
[ "${1:-}" != -s ] || { sweep=1; shift; }
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
GNUPLOT=${GNUPLOT:-gnuplot}
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_gnuplot || exit 1
d=$(mktemp -d)
cleanup_on_exit 'rm -rf "$d"'
# gnuplot strings are in single quotes: double any quote in the labels.
q() { printf "'%s'" "${1//\'/\'\'}"; }
# figure XLABEL SETTING PANEL: draw $png, a panel per line of $d/metrics
# (PANEL METRIC prints its plot command), titled $title, with one legend,
# on the first panel.
figure() {
	local n i=0 m
	n=$(wc -l <"$d/metrics")
	{
		echo "set terminal pngcairo noenhanced size 900,$((220 * n + 60)) font ',9'"
		echo "set output $(q "$png")"
		echo "set multiplot layout $n,1 title $(q "$title")"
		echo "set xlabel '$1'"
		echo "$2"
		while read -r m; do
			i=$((i + 1))
			[ "$i" = 1 ] && echo "set key inside top right opaque box" || echo "unset key"
			echo "set ylabel $(q "$m")"
			"$3" "$m"
		done <"$d/metrics"
		echo "unset multiplot"
	} >"$d/plot.gp"
	"$GNUPLOT" "$d/plot.gp" 2>"$d/log" || { cat "$d/log" >&2; echo "error: gnuplot failed on $png" >&2; exit 1; }
}

if [ -n "$sweep" ]; then
	[ $# -ge 5 ] || { echo "$usage" >&2; exit 2; }
	png=$1 title=$2 la=$3 lb=$4
	shift 4
	# Per metric and side, "count mean sd" lines, counts in order.
	for p in "$@"; do
		c=${p%%:*} csv=${p#*:}
		[[ $c =~ ^[0-9]+$ ]] && [ -r "$csv" ] || { echo "error: '$p' is not COUNT:CSV" >&2; exit 2; }
		awk -F, -v c="$c" -v d="$d" 'NR > 1 {
				print c, $4, $4 * $5 / 100 >> (d "/" $1 "." $2)
				if (!($1 in seen)) { seen[$1] = 1; print $1 >> (d "/metrics.all") }
			}' "$csv"
	done
	awk '!seen[$0]++' "$d/metrics.all" >"$d/metrics"
	sweep_panel() {
		echo "plot '$d/$1.A' using 1:2:3 with yerrorlines pt 7 lc rgb '#1f77b4' title $(q "$la"), \\"
		echo "     '$d/$1.B' using 1:2:3 with yerrorlines pt 5 lc rgb '#d62728' title $(q "$lb")"
	}
	figure count "set offsets graph 0.05, graph 0.05, 0, 0" sweep_panel
	exit 0
fi

raw=$1 png=$2 title=${3:-A/B} la=${4:-A} lb=${5:-B}
# One data file per metric and side: "run-number value". A metric that is 0
# in every run of both sides (a decision no run took) gets no panel, as it
# gets no row in bench/stats' table.
awk -v d="$d" '$1 ~ /^[AB]$/ && NF == 3 {
		k = $2 "." $1; n[k]++
		print n[k], $3 > (d "/" k)
		if (!($2 in seen)) { seen[$2] = 1; order[++m] = $2 }
		if ($3 + 0 != 0) nonzero[$2] = 1
	}
	END { for (i = 1; i <= m; i++) if (order[i] in nonzero) print order[i] > (d "/metrics") }' "$raw"
[ -s "$d/metrics" ] || { echo "error: $raw has no 'A|B METRIC VALUE' lines to plot" >&2; exit 1; }
run_panel() {
	echo "stats '$d/$1.A' using 2 name 'SA' nooutput"
	echo "stats '$d/$1.B' using 2 name 'SB' nooutput"
	echo "plot '$d/$1.A' using 1:2 with linespoints pt 7 lc rgb '#1f77b4' title $(q "$la"), \\"
	echo "     SA_mean with lines dt 2 lc rgb '#1f77b4' notitle, \\"
	echo "     '$d/$1.B' using 1:2 with linespoints pt 5 lc rgb '#d62728' title $(q "$lb"), \\"
	echo "     SB_mean with lines dt 2 lc rgb '#d62728' notitle"
}
figure run "set xtics 1" run_panel
