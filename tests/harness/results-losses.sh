#!/usr/bin/env bash
# check: quick, budget 60 s
# No loss in a cited record goes unsaid. For every record under docs/results/
# that a changelog or the cover letter cites (its README.md's "Cited by"
# paragraph names series/NNNN or series/cover-letter), every significant cell
# of its report.txt tables that goes against side A (the switch on) must be
# quoted in the text that cites the record: the changelog of a series/NNNN it
# names (above its ---) or the cover letter if it names series/cover-letter.
# Otherwise it fails and lists each such cell with the figure the text must
# carry and where.
#
# The design, and what it leaves out:
# - A cell is a row of an A/B table (bench/stats.c, through bench/report.sh
#   or a record's own script): "Amean METRIC B (cv) A (cv) change p *".
#   Whether a cell goes against A comes from the two means and the metric's
#   direction here (HIGHER: higher is better; every other outcome metric is
#   lower-is-better), not from the change column: that column prints "-" for
#   a metric the record called neither better nor worse (a share of
#   wakeups) and 0.00% when B's mean is 0, and neither may read as "no
#   loss". Where the column has a signed number, its sign must agree with
#   the direction here, or the test stops: one direction, checked against
#   every record. Gains are not enforced: a changelog has every reason to
#   quote those; the failure worth a test is a loss left out.
# - The figure is the one the changelogs print, "+ = more" (the changelogs'
#   and the cover letter's convention, not the report's): the sign of A
#   against B and the change to one decimal, "+234.3%" or "-34.8%", marked
#   significant where it stands ("*", "(p ...)", ", p ..."). Matching the
#   signed figure rather than the bare number keeps a coincidental "34.8%"
#   elsewhere from counting. A text that words a figure another way ("55 ->
#   96 a run") must quote the percentage as well. A rise from a mean of 0
#   has no percentage: the text must carry "0 to X" or "0 -> X", X side A's
#   mean to one decimal, marked significant the same way.
# - The text is the citing text only: a loss quoted in another changelog
#   does not count, so that a reader of the changelog that cites a record
#   learns what it lost. (A narrower rule, the set's own changelog, would
#   need the Cited by line to say which set each citer quotes; it does so in
#   words only.)
# - Outcome metrics (OUTCOME) are what the workload did: migrations and where
#   they went, context switches, wait, CPUs used, time, throughput,
#   latencies, bandwidth, and wake_stay_pct (bench/where.awk: the share of
#   wakeups that ran where the task last ran, from the trace, not from the
#   switches' counts; it is higher-is-better, as keeping a wakee where it
#   ran is what the switches are for). The counts of the switches' own
#   decisions (DECISION: sched/sis_wake's wake_fit_*, wake_no_room_*,
#   wake_bias_*, wake_limit_*, wake_room_*, wake_sync_*; sched/sis_scan's scans, stopped,
#   found; the NUMA test's stacked and moved) are excluded, by name: they
#   rise from 0 by construction when a switch is on, and are not losses.
#   NEUTRAL holds outcome metrics with no better side: wake_local_pct
#   (sp-schbench: wakeups run on the waker's CPU), which says where, not how
#   well. SOUNDNESS holds the counts that say whether a run measured what it
#   should, not what the switch did to the load: bench/tbench.sh's SYNs
#   dropped at tbench_srv's full accept queue (backlog 20) and sent again
#   (tbench_listen_overflows, tbench_listen_drops, tbench_syn_retrans),
#   and its expired retransmission timers (tbench_tcp_timeouts), and the
#   clients that had done nothing by dbench's last report
#   (tbench_idle_clients).
#   They are lower-is-better in the report, and a record with any says so
#   in its README; what they cost the load shows in tbench_mbps and
#   tbench_maxlat_ms, which are outcomes. A metric in none of the lists
#   stops the test with its name, so a new metric is sorted once, here,
#   before it can slip through.
# - A record cited only by README.md, the rst or a test's comment is not read:
#   the guard holds the changelogs and the cover letter, what a reviewer reads.
#   A record without report.txt (kselftest mutants, run logs) has no such
#   cells. A "Cited by" paragraph that names a patch other than as
#   series/NNNN ("0008's changelog", "the cover letter"), even beside one
#   that does, is an error: the guard and results-records.sh would both miss
#   it. So is a series/NNNN with no patch.
# The checker runs on the repository, which must pass, and on made-up copies
# that must fail: a loss no text quotes, a loss quoted with the wrong sign or
# without its significance, a loss quoted only by a changelog that does not
# cite the record, a citation in free form (alone or beside series/NNNN), a
# drop of wake_stay_pct, a rise from 0, a direction that disagrees with the
# record's, and an unknown metric; and on one that must pass: a rise of a
# SOUNDNESS count that no text quotes.
. "$(dirname "$0")/../lib.sh"

OUTCOME='^(migrations|mig_[a-z]+|ctxsw|wait_us|cpus_utilised|time_s|tbench_mbps|tbench_maxlat_ms|rps|(wakeup|request)_p[0-9]+_us|triad_mbps|triad_avg_mbps|wake_stay_pct|insns|l[23]_miss|c2c_(llc|node|remote)|dram_(local|remote)|stall_ms)$'
HIGHER='^(cpus_utilised|tbench_mbps|rps|triad_mbps|triad_avg_mbps|wake_stay_pct)$'
DECISION='^(wake_(fit|no_room|bias|limit|room|sync)_[a-z_]+|scans|stopped|found|found_per_scan|cpus_per_scan|stacked|moved)$'
NEUTRAL='^(wake_local_pct)$'
SOUNDNESS='^(tbench_listen_overflows|tbench_listen_drops|tbench_syn_retrans|tbench_tcp_timeouts|tbench_idle_clients)$'

# cells REPORT: a line per significant loss, "set<TAB>metric<TAB>figure", or
# an error line (no tab) for an unknown metric or a disagreeing direction
cells() {
	awk -v rep="$1" -v outcome="$OUTCOME" -v higher="$HIGHER" \
	    -v decision="$DECISION" -v neutral="$NEUTRAL" -v soundness="$SOUNDNESS" '
		/^== / { set = substr($0, 4) }
		/^(Amean|Hmean|Gmean) / {
			m = $2
			if (m ~ decision || m ~ neutral || m ~ soundness) next
			if (m !~ outcome) { print rep ": metric " m " is in no list of tests/harness/results-losses.sh (OUTCOME, DECISION, NEUTRAL or SOUNDNESS): sort it there"; next }
			if ($NF != "*") next
			# the means of B and of A: the first two fields
			# that are plain numbers
			n = 0
			for (i = 3; i <= NF && n < 2; i++)
				if ($i ~ /^-?[0-9]+(\.[0-9]+)?$/) v[n++] = $i
			b = v[0] + 0; a = v[1] + 0
			up = (m ~ higher)
			# the report'"'"'s sign, where it has one, must agree
			ch = $(NF - 2)
			if (ch ~ /^-?[0-9.]+%$/ && ch + 0 != 0 && a != b && ((ch + 0 > 0) != ((a > b) == up))) {
				print rep ": [" set "] " m ": the report calls " ch " better for A, the direction in tests/harness/results-losses.sh (HIGHER) the other way: fix one"
				next
			}
			if (a == b || (a > b) == up) next
			if (b == 0) { printf "%s\t%s\t0 to %.1f\n", set, m, a; next }
			mag = (a - b) / b * 100
			printf "%s\t%s\t%s%.1f%%\n", set, m, (mag > 0 ? "+" : "-"), (mag > 0 ? mag : -mag)
		}' "$1"
}

# losses ROOT: prints a line per loss no citing text quotes (or per bad
# input); exit 1 when there is any
losses() {
	local root=$1 rec d bad=0 cited rest c f text rep line set m fig re
	text=$(mktemp)
	for rec in "$root"/docs/results/*/README.md; do
		[ -f "$rec" ] || continue
		d=${rec%/README.md}
		cited=$(awk '/^Cited by/ { on = 1 } on && /^$/ { exit } on { print }' "$rec")
		[ -n "$cited" ] || continue
		case $cited in "Cited by no changelog"*) continue ;; esac
		rest=$(echo "$cited" | sed -E 's#series/([0-9]{4}|cover-letter)##g')
		if echo "$rest" | grep -qE '\b0[0-9]{3}\b|[Cc]over letter'; then
			echo "${d#"$root"/}: its 'Cited by' names a changelog in free form; write series/NNNN or series/cover-letter"
			bad=1
			continue
		fi
		echo "$cited" | grep -qE 'series/([0-9]{4}|cover-letter)' || continue
		# the citing text, on one line, so that a figure and its
		# "(p ...)" may fall on two
		: >"$text"
		for c in $(echo "$cited" | grep -oE 'series/([0-9]{4}|cover-letter)' | sort -u); do
			if [ "$c" = series/cover-letter ]; then
				cat "$root/series/cover-letter" >>"$text" 2>/dev/null || {
					echo "${d#"$root"/}: its 'Cited by' names series/cover-letter, which does not exist"
					bad=1
				}
				continue
			fi
			f=$(compgen -G "$root/$c-*.patch" | head -n1)
			if [ -z "$f" ]; then
				echo "${d#"$root"/}: its 'Cited by' names $c, which is no patch: fix the number"
				bad=1
				continue
			fi
			awk '/^---$/ { exit } { print }' "$f" >>"$text"
		done
		tr -s '\n' ' ' <"$text" >"$text.1" && mv "$text.1" "$text"
		while IFS= read -r rep; do
			while IFS= read -r line; do
				case $line in
				*$'\t'*) ;;
				*) echo "$line"; bad=1; continue ;;
				esac
				IFS=$'\t' read -r set m fig <<<"$line"
				re=${fig//./\\.}
				re=${re//+/\\+}
				re=${re/#0 to /0 (to|->) }
				# marked significant where it stands: "-34.8%*",
				# "-34.8% (p 0.01)", "-34.8%, p < 0.001"
				grep -qE -- '(^|[^0-9.])'"$re"'(\*|,? \(?p[ <=])' "$text" && continue
				echo "${rep#"$root"/}: [$set] $m $fig (p < 0.05) is quoted, marked significant, by none of the texts that cite it ($(echo "$cited" | grep -oE 'series/([0-9]{4}|cover-letter)' | sort -u | tr '\n' ' ' | sed 's/ $//'))"
				bad=1
			done < <(cells "$rep")
		done < <(find "$d" -name report.txt | sort)
	done
	rm -f "$text"
	return $bad
}

out=$(losses "$TOP") || fail "losses in cited records that no citing changelog or cover letter states:
$out"
n=$(grep -lE '^Cited by.*series/' "$TOP"/docs/results/*/README.md | wc -l)

t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mk() { # the made-up repository: two patches, one record cited by the first
	rm -rf "$t/series" "$t/docs"
	mkdir -p "$t/series" "$t/docs/results/r1"
	printf 'Subject: x\n\nOn QEMU TCG: %s\n---\nhistory: +40.0%% wait\n' "$1" >"$t/series/0001-x.patch"
	printf 'Subject: y\n\nOn QEMU TCG: %s\n---\n' "${3:-nothing}" >"$t/series/0002-y.patch"
	printf '# r1\n\n%s\n\nCommand: make bench, HEAD abc1234.\n' "$2" >"$t/docs/results/r1/README.md"
	cat >"$t/docs/results/r1/report.txt" <<-'EOF'
	== set-a: a switch, a load
	   A: X, B: NO_X; 12 interleaved runs per side
	Amean wake_fit_target       0.0000 (  0.00%)     432.1667 ( 33.67%)         -  0.0000 *
	Amean wake_stay_pct      80.0000 (  2.24%)      80.5000 (  3.37%)         -  0.9007 
	Amean wake_local_pct       0.1700 (315.38%)       4.3958 (123.54%)         -  0.0210 *
	Amean wait_us       3000.0000 ( 17.04%)    4200.0000 ( 17.76%)   -40.00%  0.0010 *
	Amean migrations    2000.0000 ( 13.09%)    1500.0000 ( 13.47%)    25.00%  0.0000 *
	Amean mig_remote       0.0000 (  0.00%)       1.5000 ( 40.00%)     0.00%  0.3000 
	Amean cpus_utilised      40.0000 (  8.70%)      30.0000 (  8.23%)   -25.00%  0.0400 *
	Amean time_s           3.0000 ( 13.14%)       2.9000 ( 15.49%)     3.33%  0.5000 
	EOF
}
ok="wait +40.0%*, CPUs used -25.0% (p 0.04)"
mk "$ok" "Cited by series/0001."
out=$(losses "$t") || fail "a record whose losses are all quoted failed: $out"
mk "CPUs used -25.0%*" "Cited by series/0001."
out=$(losses "$t") && fail "a loss quoted only below --- passed"
echo "$out" | grep -qF "r1/report.txt: [set-a: a switch, a load] wait_us +40.0% (p < 0.05) is quoted, marked significant, by none of the texts that cite it (series/0001)" ||
	fail "unexpected message: $out"
mk "wait -40.0%*, CPUs used -25.0%*" "Cited by series/0001."
out=$(losses "$t") && fail "a loss quoted with the wrong sign passed"
mk "wait +40.0%, CPUs used -25.0%*" "Cited by series/0001."
out=$(losses "$t") && fail "a loss quoted without its significance passed"
# quoted, but by a changelog that does not cite the record
mk "CPUs used -25.0%*" "Cited by series/0001." "wait +40.0%*"
out=$(losses "$t") && fail "a loss quoted only by a changelog that does not cite the record passed"
echo "$out" | grep -q "wait_us +40.0% (p < 0.05) is quoted, marked significant, by none" || fail "unexpected message: $out"
mk "CPUs used -25.0%*" "Cited by series/0001 and series/0002." "wait +40.0%*"
out=$(losses "$t") || fail "a loss quoted by the second of two citing changelogs failed: $out"
mk "nothing" "Cited by 0001's changelog."
out=$(losses "$t") && fail "a citation in free form passed"
echo "$out" | grep -q "names a changelog in free form; write series/NNNN" || fail "unexpected message: $out"
mk "$ok" "Cited by series/0001 and 0002's changelog."
out=$(losses "$t") && fail "a citation half in free form (series/0001 and 0002) passed"
echo "$out" | grep -q "names a changelog in free form; write series/NNNN" || fail "unexpected message: $out"
mk "$ok" "Cited by series/0001 and the cover letter."
out=$(losses "$t") && fail "a citation of 'the cover letter' beside series/0001 passed"
mk "$ok" "Cited by series/0003."
out=$(losses "$t") && fail "a citation of a patch that does not exist passed"
echo "$out" | grep -q "names series/0003, which is no patch" || fail "unexpected message: $out"
mk "nothing" "Cited by no changelog now (an earlier version)."
out=$(losses "$t") || fail "a record cited by no changelog was read: $out"
# wake_stay_pct (change "-" in the report) that falls significantly
mk "$ok" "Cited by series/0001."
sed -i 's/^Amean wake_stay_pct .*/Amean wake_stay_pct      91.5433 (  0.75%)      80.8500 ( 12.55%)         -  0.0492 */' "$t/docs/results/r1/report.txt"
out=$(losses "$t") && fail "a significant drop of wake_stay_pct passed"
echo "$out" | grep -q "wake_stay_pct -11.7% (p < 0.05)" || fail "unexpected message: $out"
mk "$ok; stayed -11.7% (p 0.049)" "Cited by series/0001."
sed -i 's/^Amean wake_stay_pct .*/Amean wake_stay_pct      91.5433 (  0.75%)      80.8500 ( 12.55%)         -  0.0492 */' "$t/docs/results/r1/report.txt"
out=$(losses "$t") || fail "a quoted drop of wake_stay_pct failed: $out"
# a significant rise from 0 (the report prints 0.00%) of an outcome metric
mk "$ok" "Cited by series/0001."
sed -i 's/^\(Amean mig_remote .*\)0\.3000 $/\10.0300 */' "$t/docs/results/r1/report.txt"
out=$(losses "$t") && fail "a significant rise from 0 passed as no change"
echo "$out" | grep -q "mig_remote 0 to 1.5 (p < 0.05)" || fail "unexpected message: $out"
mk "$ok; remote 0 -> 1.5*" "Cited by series/0001."
sed -i 's/^\(Amean mig_remote .*\)0\.3000 $/\10.0300 */' "$t/docs/results/r1/report.txt"
out=$(losses "$t") || fail "a quoted rise from 0 failed: $out"
# a report whose sign disagrees with the direction here
mk "$ok" "Cited by series/0001."
sed -i 's/-25\.00%  0\.0400/ 25.00%  0.0400/' "$t/docs/results/r1/report.txt"
out=$(losses "$t") && fail "a report that calls a fall of CPUs used better passed"
echo "$out" | grep -q "cpus_utilised: the report calls 25.00% better for A" || fail "unexpected message: $out"
# a significant rise from 0 of a soundness count (SYNs dropped at
# tbench_srv's accept queue) is no loss a changelog must quote
mk "$ok" "Cited by series/0001."
echo 'Amean tbench_listen_drops       0.0000 (  0.00%)       3.0000 ( 20.00%)     0.00%  0.0010 *' >>"$t/docs/results/r1/report.txt"
out=$(losses "$t") || fail "a rise of tbench_listen_drops was taken for a loss: $out"
mk "$ok" "Cited by series/0001."
sed -i 's/^Amean time_s /Amean newmetric /' "$t/docs/results/r1/report.txt"
out=$(losses "$t") && fail "an unknown metric passed"
echo "$out" | grep -q "metric newmetric is in no list" || fail "unexpected message: $out"
echo "# losses checked in the report.txt of $n records cited by series/"
