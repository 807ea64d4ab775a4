#!/usr/bin/env bash
# check: quick, budget 60 s
# No loss in a cited record goes unsaid. For every record under docs/results/
# that a changelog or the cover letter cites (its README.md's "Cited by"
# paragraph names series/NNNN or series/cover-letter), every significant cell
# of its report.txt tables that goes against side A (the switch on) must be
# quoted in some changelog (a series/NNNN-*.patch above its ---) or in the
# cover letter. Otherwise it fails and lists each such cell with the figure
# the text must carry.
#
# The design, and what it leaves out:
# - A cell is a row of an A/B table (bench/stats.c, through bench/report.sh
#   or a record's own script): "Amean METRIC B (cv) A (cv) change p *". The
#   change there is signed "positive = A better", by the metric's direction
#   from bench/sets, so "against the switch" is exact: a negative change with
#   a star. Gains are not enforced: a changelog has every reason to quote
#   those; the failure worth a test is a loss left out.
# - The figure is the one the changelogs print, "+ = more" (the changelogs'
#   and the cover letter's convention, not the report's): the sign of A
#   against B and the change to one decimal, "+234.3%" or "-34.8%". Matching
#   the signed figure rather than the bare number keeps a coincidental
#   "34.8%" elsewhere from counting. A text that words a figure another way
#   ("55 -> 96 a run") must quote the percentage as well.
# - Only outcome metrics are cells: what the workload did (migrations and
#   where they went, context switches, wait, CPUs used, time, throughput,
#   latencies, bandwidth). The counts of the switches' own decisions
#   (sched/sis_wake's wake_*, sched/sis_scan's scans, stopped, found, the
#   NUMA test's stacked and moved) change by construction when a switch is on
#   and are not losses. A metric in neither list stops the test with its
#   name, so a new metric is sorted once, here, before it can slip through.
# - A record cited only by README.md, the rst or a test's comment is not read:
#   the guard holds the changelogs and the cover letter, what a reviewer reads.
#   A record without report.txt (kselftest mutants, run logs) has no such
#   cells. A "Cited by" paragraph that names a patch other than as
#   series/NNNN ("0008's changelog", "the cover letter") is an error: the
#   guard and results-records.sh would both miss it.
# The checker runs on the repository, which must pass, and on made-up copies
# that must fail: a loss no text quotes, a loss quoted with the wrong sign, a
# citation in free form, and an unknown metric.
. "$(dirname "$0")/../lib.sh"

OUTCOME='^(migrations|mig_[a-z]+|ctxsw|wait_us|cpus_utilised|time_s|tbench_mbps|tbench_maxlat_ms|rps|(wakeup|request)_p[0-9]+_us|triad_mbps|triad_avg_mbps)$'
DECISION='^(wake_[a-z_]+|scans|stopped|found|found_per_scan|cpus_per_scan|stacked|moved)$'

# losses ROOT: prints a line per loss no text quotes (or per bad input);
# exit 1 when there is any
losses() {
	local root=$1 rec d text bad=0 f
	text=$(mktemp)
	for f in "$root"/series/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$f" ] && awk '/^---$/ { exit } { print }' "$f"
	done >"$text"
	[ -f "$root/series/cover-letter" ] && cat "$root/series/cover-letter" >>"$text"
	# one line, so that a figure and its "(p ...)" may fall on two
	tr -s '\n' ' ' <"$text" >"$text.1" && mv "$text.1" "$text"
	for rec in "$root"/docs/results/*/README.md; do
		[ -f "$rec" ] || continue
		d=${rec%/README.md}
		local cited
		cited=$(awk '/^Cited by/ { on = 1 } on && /^$/ { exit } on { print }' "$rec")
		[ -n "$cited" ] || continue
		case $cited in "Cited by no changelog"*) continue ;; esac
		if ! echo "$cited" | grep -qE 'series/([0-9]{4}|cover-letter)'; then
			if echo "$cited" | grep -qE '\b0[0-9]{3}\b|cover letter'; then
				echo "${d#"$root"/}: its 'Cited by' names a changelog in free form; write series/NNNN or series/cover-letter"
				bad=1
			fi
			continue
		fi
		local rep
		while IFS= read -r rep; do
			awk -v rep="${rep#"$root"/}" -v outcome="$OUTCOME" -v decision="$DECISION" '
				/^== / { set = substr($0, 4) }
				/^(Amean|Hmean|Gmean) / {
					m = $2
					if (m ~ decision) next
					if (m !~ outcome) { print rep ": metric " m " is in neither list of tests/harness/results-losses.sh (OUTCOME or DECISION): sort it there"; next }
					if ($NF != "*") next
					# the means of B and of A: the first two fields
					# that are plain numbers
					n = 0
					for (i = 3; i <= NF && n < 2; i++)
						if ($i ~ /^-?[0-9]+(\.[0-9]+)?$/) v[n++] = $i
					ch = $(NF - 2); sub(/%$/, "", ch)
					if (ch + 0 >= 0) next
					# A against B from the means (the change column
					# has two decimals: 25.95 there is 25.953)
					mag = (v[1] - v[0]) / v[0] * 100
					printf "%s\t%s\t%s\t%s%.1f%%\n", rep, set, m, (mag > 0 ? "+" : "-"), (mag > 0 ? mag : -mag)
				}' "$rep"
		done < <(find "$d" -name report.txt | sort)
	done | {
		local line rep set m fig
		while IFS= read -r line; do
			case $line in
			*": metric "* | *"'Cited by'"*) echo "$line"; bad=1; continue ;;
			esac
			IFS=$'\t' read -r rep set m fig <<<"$line"
			# the figure, marked significant where it stands: "-34.8%*",
			# "-34.8% (p 0.01)", "-34.8%, p < 0.001"
			local re=${fig//./\\.}
			re=${re//+/\\+}
			grep -qE -- '(^|[^0-9.])'"$re"'(\*|,? \(?p[ <=])' "$text" && continue
			echo "$rep: [$set] $m $fig (p < 0.05) is quoted, marked significant, by no changelog and not by the cover letter"
			bad=1
		done
		return $bad
	}
	bad=$((bad | $?))
	rm -f "$text"
	return $bad
}

out=$(losses "$TOP") || fail "losses in cited records that no changelog or cover letter states:
$out"
n=$(grep -lE '^Cited by.*series/' "$TOP"/docs/results/*/README.md | wc -l)

t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mk() { # the made-up repository: one patch, one record cited by it
	rm -rf "$t/series" "$t/docs"
	mkdir -p "$t/series" "$t/docs/results/r1"
	printf 'Subject: x\n\nOn QEMU TCG: %s\n---\nhistory: +40.0%% wait\n' "$1" >"$t/series/0001-x.patch"
	printf '# r1\n\n%s\n\nCommand: make bench, HEAD abc1234.\n' "$2" >"$t/docs/results/r1/README.md"
	cat >"$t/docs/results/r1/report.txt" <<-'EOF'
	== set-a: a switch, a load
	   A: X, B: NO_X; 12 interleaved runs per side
	Amean wake_fit_target       0.0000 (  0.00%)     432.1667 ( 33.67%)         -  0.0000 *
	Amean wait_us       3000.0000 ( 17.04%)    4200.0000 ( 17.76%)   -40.00%  0.0010 *
	Amean migrations    2000.0000 ( 13.09%)    1500.0000 ( 13.47%)    25.00%  0.0000 *
	Amean cpus_utilised      40.0000 (  8.70%)      30.0000 (  8.23%)   -25.00%  0.0400 *
	Amean time_s           3.0000 ( 13.14%)       2.9000 ( 15.49%)     3.33%  0.5000 
	EOF
}
mk "wait +40.0%*, CPUs used -25.0% (p 0.04)" "Cited by series/0001."
out=$(losses "$t") || fail "a record whose losses are all quoted failed: $out"
mk "CPUs used -25.0%*" "Cited by series/0001."
out=$(losses "$t") && fail "a loss quoted only below --- passed"
echo "$out" | grep -qF "r1/report.txt: [set-a: a switch, a load] wait_us +40.0% (p < 0.05) is quoted, marked significant, by no changelog" ||
	fail "unexpected message: $out"
mk "wait -40.0%*, CPUs used -25.0%*" "Cited by series/0001."
out=$(losses "$t") && fail "a loss quoted with the wrong sign passed"
mk "wait +40.0%, CPUs used -25.0%*" "Cited by series/0001."
out=$(losses "$t") && fail "a loss quoted without its significance passed"
mk "nothing" "Cited by 0001's changelog."
out=$(losses "$t") && fail "a citation in free form passed"
echo "$out" | grep -q "names a changelog in free form; write series/NNNN" || fail "unexpected message: $out"
mk "nothing" "Cited by no changelog now (an earlier version)."
out=$(losses "$t") || fail "a record cited by no changelog was read: $out"
mk "wait +40.0%*, CPUs used -25.0%*" "Cited by series/0001."
sed -i 's/^Amean time_s /Amean newmetric /' "$t/docs/results/r1/report.txt"
out=$(losses "$t") && fail "an unknown metric passed"
echo "$out" | grep -q "metric newmetric is in neither list" || fail "unexpected message: $out"
echo "# losses checked in the report.txt of $n records cited by series/"
