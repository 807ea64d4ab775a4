#!/usr/bin/env bash
# Scan guest console logs and dmesg for splats. Prints each distinct hit and
# exits 1 if there is any, 0 if the logs are clean.
#   console-check.sh [-c LINES] FILE...
# -c LINES also prints the first report in full: LINES lines of the first
# FILE that has a hit, from that hit on (the call trace of a WARNING, the
# stacks of a lockdep report), so that a failed run can be read from its
# output alone.
# The kernel command line is skipped: it carries "panic=-1". Lockdep's own
# banner ("RCU lockdep checking is enabled") is not a splat; its reports all
# start with WARNING: or BUG:, and end with "INFO: lockdep is turned off".
#
# KCSAN_SCOPE=FILE (one function name a line; stress.sh writes it for the
# KCSAN kernel from scripts/series-functions.sh) limits KCSAN reports to that
# scope: a "BUG: KCSAN:" report is a splat only if its title or a frame of
# either stack names a function of FILE. The others are listed on stderr as
# outside the scope and do not fail the run. Why: under the stress load,
# unpatched base code itself gives KCSAN reports (nohz.idle_cpus_mask, timer
# flags, the maple tree), so "no KCSAN report" cannot tell the series from
# its base. Every other kind
# of splat, and every KCSAN report without KCSAN_SCOPE, fails as before.
set -uo pipefail
context=0
if [ "${1:-}" = -c ]; then
	context=$2
	shift 2
fi
splat='BUG:|WARNING:|Oops|KASAN:|Kernel panic|soft lockup|hard LOCKUP|rcu: .*stall|INFO: task .* blocked|possible (recursive|circular) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|INFO: lockdep is turned off'
# Console lines without their timestamps and the serial console's CR.
lines() { cat "$@" 2>/dev/null | tr -d '\r' | sed 's/^\[ *[0-9.]*\] //'; }
hits=$(lines "$@" | grep -iv 'command line' | grep -E "$splat" | sort -u)
if [ -n "${KCSAN_SCOPE:-}" ] && [ -n "$hits" ]; then
	[ -r "$KCSAN_SCOPE" ] || { echo "console-check: KCSAN_SCOPE=$KCSAN_SCOPE: no such file" >&2; exit 2; }
	# "IN title" or "OUT title" for each KCSAN report: its title, then the
	# two stacks (" func+0x1d/0x30"), up to the "=====" line that closes it.
	kcsan=$(lines "$@" | awk -v scope="$KCSAN_SCOPE" '
		BEGIN { while ((getline f < scope) > 0) in_scope[f] = 1 }
		function name(s) { sub(/^[ \t]+/, "", s); sub(/[+ ].*/, "", s); sub(/\..*/, "", s); return s }
		function close_report() { if (title != "") print (hit ? "IN " : "OUT ") title; title = "" }
		/BUG: KCSAN: / {
			close_report(); title = $0; hit = 0
			t = $0; sub(/.* in /, "", t); n = split(t, fn, " / ")
			for (i = 1; i <= n; i++) if (name(fn[i]) in in_scope) hit = 1
			next
		}
		title != "" && /^=+$/ { close_report(); next }
		title != "" && /^[ \t]+[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+/ { if (name($0) in in_scope) hit = 1 }
		END { close_report() }')
	out=$(echo "$kcsan" | sed -n 's/^OUT //p' | sort -u)
	ours=$(echo "$kcsan" | sed -n 's/^IN //p' | sort -u)
	# A title seen in the scope once counts, even if it was outside it elsewhere.
	only_out=$(comm -23 <(echo "$out") <(echo "$ours") | sed '/^$/d')
	if [ -n "$only_out" ]; then
		echo "console-check: $(echo "$only_out" | wc -l) distinct KCSAN report(s) outside the series' functions ($KCSAN_SCOPE), not counted:" >&2
		echo "$only_out" | sed 's/^/  /' >&2
		hits=$(echo "$hits" | grep -vxF -f <(echo "$only_out") || true)
	fi
fi
hits=$(echo "$hits" | sed '/^$/d' | head -n 20)
[ -z "$hits" ] && exit 0
echo "$hits"
if [ "$context" -gt 0 ]; then
	for f in "$@"; do
		# The first line of FILE that is one of the hits (whole line, once
		# the timestamp is off): the first report that counts.
		first=$(lines "$f" | awk 'NR == FNR { hit[$0] = 1; next }
			!/[Cc][Oo][Mm][Mm][Aa][Nn][Dd] [Ll][Ii][Nn][Ee]/ && ($0 in hit) { print FNR; exit }' <(echo "$hits") -)
		[ -n "$first" ] || continue
		echo "--- the first report, from $(basename "$f"):"
		tr -d '\r' <"$f" | tail -n "+$first" | head -n "$context"
		break
	done
fi
exit 1
