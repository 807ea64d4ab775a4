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
# its base. Every other kind of splat, and every KCSAN report without
# KCSAN_SCOPE or KCSAN_LINES, fails as before.
#
# KCSAN_LINES=FILE (FILE:LINE a line, scripts/series-lines.sh) is the finer
# scope, by line: each report's access sites (the first frame under each
# "read to ... by task N on cpu M:", "write ...", "race at unknown origin,
# with ..." line) are placed with FADDR2LINE (default: build/linux's
# scripts/faddr2line) in KCSAN_VMLINUX (the KCSAN kernel's vmlinux, built
# with line info), and a report is a splat only if a site is a series line:
# the access's own line or, when it was inlined, a line of its inline chain
# (an access in an inlined base helper called from a line the series wrote
# is the series'). A base race inside a function the series touched is then
# listed as outside, which the function scope cannot tell. Each distinct
# site is placed once; KCSAN_FRAMES=FILE keeps them across calls. When
# faddr2line fails (a vmlinux without debug info), the function scope
# KCSAN_SCOPE runs instead, if given (else exit 2); a site it cannot place
# leaves its report to the function scope too. Which scope ran is said on
# stderr, and for each report at a series line the site and the line.
# KCSAN_REPORTS=FILE gets each report's verdict, "IN title" or "OUT title".
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
kcsan_note() { echo "console-check: $*" >&2; }
if { [ -n "${KCSAN_SCOPE:-}" ] || [ -n "${KCSAN_LINES:-}" ]; } && [ -n "$hits" ]; then
	if [ -n "${KCSAN_SCOPE:-}" ] && [ ! -r "$KCSAN_SCOPE" ]; then
		kcsan_note "KCSAN_SCOPE=$KCSAN_SCOPE: no such file"
		exit 2
	fi
	mode=functions
	if [ -n "${KCSAN_LINES:-}" ]; then
		[ -r "$KCSAN_LINES" ] || { kcsan_note "KCSAN_LINES=$KCSAN_LINES: no such file"; exit 2; }
		if [ -z "${KCSAN_VMLINUX:-}" ] || [ ! -r "$KCSAN_VMLINUX" ]; then
			kcsan_note "KCSAN_LINES needs KCSAN_VMLINUX, the KCSAN kernel's vmlinux with debug info (KCSAN_VMLINUX=${KCSAN_VMLINUX:-unset}: no such file)"
			exit 2
		fi
		mode=lines
		faddr2line=${FADDR2LINE:-${BUILD:-$(dirname "$0")/../build}/linux/scripts/faddr2line}
	fi
	# One line per KCSAN report: "title<TAB>F<TAB>site<TAB>site", F 1 if its
	# title or a frame of either stack names a function of KCSAN_SCOPE (the
	# function-level scope), a site the first frame under an access line
	# ("read to 0x... of 8 bytes by task 12 on cpu 3:", "write (marked)
	# to ...", "race at unknown origin, with read to ..."): the access itself.
	# A report runs from its title to the "=====" line that closes it.
	reports=$(lines "$@" | awk -v scope="${KCSAN_SCOPE:-/dev/null}" '
		BEGIN { while ((getline f < scope) > 0) in_scope[f] = 1 }
		function name(s) { sub(/^[ \t]+/, "", s); sub(/[+ ].*/, "", s); sub(/\..*/, "", s); return s }
		function close_report() { if (title != "") print title "\t" hit sites; title = "" }
		/BUG: KCSAN: / {
			close_report(); title = $0; hit = 0; sites = ""; want = 0
			t = $0; sub(/.* in /, "", t); n = split(t, fn, " / ")
			for (i = 1; i <= n; i++) if (name(fn[i]) in in_scope) hit = 1
			next
		}
		title == "" { next }
		/^=+$/ { close_report(); next }
		/ to 0x[0-9a-f]+ of [0-9]+ bytes by .* on cpu [0-9]+:$/ { want = 1; next }
		/^[ \t]+[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+/ {
			if (name($0) in in_scope) hit = 1
			if (want) { s = $0; sub(/^[ \t]+/, "", s); sub(/ .*/, "", s); sites = sites "\t" s; want = 0 }
		}
		END { close_report() }')
	if [ "$mode" = lines ] && [ -n "$reports" ]; then
		# Each distinct site once, with KCSAN_FRAMES=FILE as a cache kept
		# across calls ("site<TAB>file:line file:line ...", the inline chain
		# innermost first; "?" when faddr2line found no line): a run has
		# thousands of reports at a few hundred sites.
		frames=${KCSAN_FRAMES:-}
		known=$( [ -n "$frames" ] && cat "$frames" 2>/dev/null)
		todo=$(echo "$reports" | cut -f 3- | tr '\t' '\n' | sed '/^$/d' | sort -u |
			grep -vxF -f <(echo "$known" | cut -f 1 | sed '/^$/d'; echo '#none#') || true)
		resolved=
		if [ -n "$todo" ]; then
			err=$(mktemp)
			# shellcheck disable=SC2086 # one argument per site, no spaces in one
			out=$("$faddr2line" "$KCSAN_VMLINUX" $todo 2>"$err")
			frc=$?
			if [ "$frc" != 0 ]; then
				why=$(grep -m1 . "$err")
				rm -f "$err"
				if [ -z "${KCSAN_SCOPE:-}" ]; then
					kcsan_note "$faddr2line $KCSAN_VMLINUX failed (exit $frc): ${why:-no output}; no KCSAN_SCOPE to fall back to"
					exit 2
				fi
				kcsan_note "KCSAN line scope unavailable: $faddr2line $KCSAN_VMLINUX failed (exit $frc): ${why:-no output}; falling back to the function scope"
				mode=functions
			else
				rm -f "$err"
				# "name+0x1d/0x30:" opens a site's block (faddr2line echoes
				# the offset as given); then "f at FILE:LINE" and
				# "(inlined by) g at FILE:LINE (discriminator N)" lines,
				# innermost first. A name twice in vmlinux gives two blocks:
				# both count.
				resolved=$(awk '
					FILENAME != "-" { k = $0; sub(/\/.*/, "", k); site[k] = $0; next }
					/^[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-fA-F]+\/0x[0-9a-fA-F]+:$/ { k = $0; sub(/\/.*/, "", k); cur = (k in site) ? k : ""; next }
					cur != "" && / at [^ ]+:[0-9]+/ {
						l = $0; sub(/ \(discriminator [0-9]+\)$/, "", l); sub(/.* at /, "", l)
						chain[cur] = chain[cur] (chain[cur] == "" ? "" : " ") l
					}
					END { for (k in site) print site[k] "\t" ((k in chain) ? chain[k] : "?") }' <(echo "$todo") - <<<"$out")
				[ -z "$frames" ] || echo "$resolved" >>"$frames"
			fi
		fi
	fi
	if [ -z "$reports" ]; then
		kcsan=
	elif [ "$mode" = lines ]; then
		nlines=$(sed '/^$/d' "$KCSAN_LINES" | wc -l)
		kcsan_note "KCSAN scope: the series' lines ($nlines in $KCSAN_LINES), access sites resolved with $faddr2line on $KCSAN_VMLINUX"
		where="the series' lines ($KCSAN_LINES)"
		# "IN title<TAB>why" or "OUT title" per report. A site is the
		# series' when any line of its inline chain is a series line: the
		# innermost is the access, and an outer one is the series' line
		# that an inlined helper's access came in through (a helper of the
		# base called from a line the series wrote). A file matches by its
		# path or a tail of it (faddr2line prints paths as the build saw
		# them). A report with a site faddr2line could not place is judged
		# by the function scope, when there is one.
		kcsan=$(awk -F'\t' '
			FILENAME == ARGV[1] { if ($0 != "") ours[$0] = 1; next }
			FILENAME == ARGV[2] { if ($1 != "") chain[$1] = $2; next }
			function series(fl,   f, l) {
				if (fl in ours) return 1
				f = fl; sub(/:[0-9]+$/, "", f); l = substr(fl, length(f) + 1)
				while (index(f, "/")) { f = substr(f, index(f, "/") + 1); if ((f l) in ours) return 1 }
				return 0
			}
			$0 == "" { next }
			{
				why = ""; lost = 0
				for (i = 3; i <= NF && why == ""; i++) {
					c = ($i in chain) ? chain[$i] : "?"
					if (c == "?") { lost = 1; if (!($i in unplaced)) nlost++; unplaced[$i] = 1; continue }
					n = split(c, e, " ")
					for (j = 1; j <= n; j++) if (series(e[j])) { why = $i " at " e[j] (j > 1 ? " (inlined through it; the access at " e[1] ")" : ""); break }
				}
				if (why == "" && lost && $2 == 1) why = "a site without a line, in the function scope"
				print (why != "" ? "IN " $1 "\t" why : "OUT " $1)
			}
			END { if (nlost) printf "console-check: %d access site(s) that faddr2line could not place\n", nlost > "/dev/stderr" }' "$KCSAN_LINES" <(echo "$known"; echo "$resolved") <(echo "$reports"))
	else
		kcsan_note "KCSAN scope: the series' functions ($KCSAN_SCOPE)"
		where="the series' functions ($KCSAN_SCOPE)"
		kcsan=$(echo "$reports" | awk -F'\t' '$0 != "" { print ($2 == 1 ? "IN " : "OUT ") $1 }')
	fi
	# KCSAN_REPORTS=FILE: every report's verdict, one a line, "IN title" or
	# "OUT title" (for the count of each title; kcsan-titles.sh).
	[ -z "${KCSAN_REPORTS:-}" ] || echo "$kcsan" | cut -f 1 | sed '/^$/d' >"$KCSAN_REPORTS"
	out=$(echo "$kcsan" | sed -n 's/^OUT //p' | sort -u)
	ours=$(echo "$kcsan" | sed -n 's/^IN //p' | cut -f 1 | sort -u)
	# A title seen in the scope once counts, even if it was outside it elsewhere.
	only_out=$(comm -23 <(echo "$out") <(echo "$ours") | sed '/^$/d')
	if [ -n "$only_out" ]; then
		kcsan_note "$(echo "$only_out" | wc -l) distinct KCSAN report(s) outside $where, not counted:"
		echo "$only_out" | sed 's/^/  /' >&2
		hits=$(echo "$hits" | grep -vxF -f <(echo "$only_out") || true)
	fi
	if [ "$mode" = lines ] && [ -n "$ours" ]; then
		kcsan_note "$(echo "$ours" | wc -l) distinct KCSAN report(s) at $where:"
		echo "$kcsan" | sed -n 's/^IN //p' | sort -u -t$'\t' -k1,1 | sed 's/\t/: /; s/^/  /' >&2
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
