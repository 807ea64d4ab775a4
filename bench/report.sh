#!/usr/bin/env bash
# The report of A/B runs, the one writer behind make, make bench, make
# base-vs-series and series-ab.sh on bare metal; on the host, after the guest.
#
#   report.sh [-t PLOT_TITLE_PREFIX] DIR SET...
#
# For each SET, DIR holds SET.raw (ab-run.sh's "SIDE METRIC VALUE" lines) and
# SET.meta (bench/lib.sh's ab_meta: title, labels, runs, metric directions,
# workload). Prints each SET's section (title, sides, workload, the stats
# table) and writes SET.csv (the table) and SET.png (every run, plot.sh).
# Then, over every SET.csv in DIR: results.json, one object per set, side and
# metric (set, side, label, metric, runs, mean, cv_pct, change_pct, p,
# significant; A's row holds change and p; count, count_per and topology,
# the cpus, llcs and nodes, for a set sized to the machine, else null;
# clock, the meta's: hardware, wall or icount shift=N, else null), and for each family of sets that
# differ only in a trailing count (both-g1, both-g4, ...), present with two
# counts or more, sweep-FAMILY.png: each metric's mean against the count,
# both sides, with one standard deviation as error bars.
# STATS=PATH names the stats binary (default build/bin/stats).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
stats=${STATS:-$here/../build/bin/stats}
prefix=
while getopts "t:" o; do
	case $o in
	t) prefix="$OPTARG: " ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: report.sh [-t PLOT_TITLE_PREFIX] DIR SET..." >&2; exit 2; }
dir=$1
shift
[ -x "$stats" ] || { echo "error: $stats missing; run 'make tools'" >&2; exit 1; }

# meta FILE KEY: one value of a SET.meta.
meta() { sed -n "s/^$2=//p" "$1"; }

# A set whose table cannot be made (too few runs of a metric) is named at
# the end and makes the exit status 1; the other sets, results.json and the
# sweeps are written all the same.
failed=()
for set in "$@"; do
	m=$dir/$set.meta
	[ -f "$m" ] && [ -f "$dir/$set.raw" ] || { echo "error: $dir has no $set.meta and $set.raw" >&2; exit 1; }
	title=$(meta "$m" title) a=$(meta "$m" a) b=$(meta "$m" b) also=$(meta "$m" also)
	runs=$(meta "$m" runs)
	echo "== $set: $title"
	echo "   A: $a, B: $b${also:+ (both with $also)}; $runs interleaved runs per side"
	echo "   workload: $(meta "$m" workload)"
	# A count sized to the machine (both-g2xllc): what it came to, and from what.
	[ -z "$(meta "$m" per)" ] ||
		echo "   count: $(meta "$m" count), $(meta "$m" per) = $(meta "$m" per_from) of this machine ($(meta "$m" cpus) CPUs, $(meta "$m" llcs) LLCs, $(meta "$m" nodes) nodes)"
	if ! "$stats" -a "$a" -b "$b" -m "$runs" -H "$(meta "$m" higher)" -c "$dir/$set.csv" <"$dir/$set.raw"; then
		failed+=("$set")
		rm -f "$dir/$set.csv"
		echo
		continue
	fi
	# The cache ledger's rows (LEDGER=1) are a model's, said under the table.
	! grep -q '^[AB] stall_ms ' "$dir/$set.raw" ||
		echo "(insns to stall_ms: the cache ledger's account of the runs' accesses on a modelled cache, not a measurement; ledger/README.md)"
	echo
	"$here/plot.sh" "$dir/$set.raw" "$dir/$set.png" "$prefix$title" "$a" "$b"
done

# results.json: every table in DIR.
{
	echo "["
	sep=
	for csv in "$dir"/*.csv; do
		[ -e "$csv" ] || continue
		set=$(basename "$csv" .csv)
		[ -f "$dir/$set.meta" ] || continue
		m=$dir/$set.meta
		awk -F, -v set="$set" -v la="$(meta "$m" a)" -v lb="$(meta "$m" b)" -v sep="$sep" \
			-v count="$(meta "$m" count)" -v per="$(meta "$m" per)" -v cpus="$(meta "$m" cpus)" \
			-v llcs="$(meta "$m" llcs)" -v nodes="$(meta "$m" nodes)" -v clock="$(meta "$m" clock)" '
			function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
			function num(s) { return s == "" ? "null" : s + 0 }
			# A count sized to the machine: the count, its rule and the machine.
			BEGIN {
				sized = per == "" ? "\"count\": null, \"count_per\": null, \"topology\": null" : \
					sprintf("\"count\": %d, \"count_per\": %s, \"topology\": {\"cpus\": %d, \"llcs\": %d, \"nodes\": %d}", count, q(per), cpus, llcs, nodes)
			}
			NR > 1 {
				printf "%s  {\"set\": %s, \"side\": %s, \"label\": %s, \"metric\": %s, \"runs\": %d, \"mean\": %s, \"cv_pct\": %s, \"change_pct\": %s, \"p\": %s, \"significant\": %s, %s, \"clock\": %s}",
					(n++ || sep != "") ? ",\n" : "", q(set), q($2), q($2 == "A" ? la : lb), q($1), $3, num($4), num($5), num($6), num($7),
					$8 == "" ? "null" : ($8 == 1 ? "true" : "false"), sized, clock == "" ? "null" : q(clock)
			}
			END { exit !n }' "$csv" && sep=,
	done
	echo
	echo "]"
} >"$dir/results.json.tmp"
mv "$dir/results.json.tmp" "$dir/results.json"

# Sweeps: families of two counts or more, in the order of their counts.
for csv in "$dir"/*.csv; do
	[ -e "$csv" ] || continue
	set=$(basename "$csv" .csv)
	[[ $set =~ ^(.*[^0-9])([1-9][0-9]*)$ ]] && [ -f "$dir/$set.meta" ] || continue
	echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $set"
done | sort -k1,1 -k2,2n | awk '{ n[$1]++; l[$1] = l[$1] " " $2 ":" $3 } END { for (f in n) if (n[f] > 1) print f l[f] }' |
	while read -r family points; do
		args=()
		for p in $points; do
			args+=("${p%%:*}:$dir/${p#*:}.csv")
		done
		first=${points%% *} first=${first#*:}
		"$here/plot.sh" -s "$dir/sweep-${family%-}.png" "$prefix${family}N" \
			"$(meta "$dir/$first.meta" a)" "$(meta "$dir/$first.meta" b)" "${args[@]}"
	done
if [ ${#failed[@]} -gt 0 ]; then
	echo "error: no table for ${failed[*]}: a metric with fewer runs than the set's (above)" >&2
	exit 1
fi
