#!/usr/bin/env bash
# check: quick, budget 30 s
# The series' scheduler features and switches.h agree: the SCHED_FEAT lines
# the patches of series/series add to kernel/sched/features.h (in order, a
# later "-" line taking one back) are, with their defaults, exactly the list
# of tools/testing/selftests/sched/placement/switches.h, as the harness
# reads it (scripts/lib.sh's series_switches). A new switch needs its line
# there, or the selftests, make's preflight and the smoke A/B miss it.
# Fails, naming the switch, on a made-up series whose patch adds a switch
# the list lacks, and on one whose default differs from the list's.
. "$(dirname "$0")/../lib.sh"

# patch_switches ROOT: NAME or NO_NAME (the default) of each feature the
# series adds, in series order.
patch_switches() {
	local root=$1 p
	grep -v '^#' "$root/series/series" | awk '{ print $1 }' | grep '^[0-9]' | while read -r p; do
		[ -f "$root/series/$p" ] || { echo "error: series/series names $p, which is missing" >&2; return 1; }
		cat "$root/series/$p"
	done | awk '
		/^diff --git / { f = ($3 == "a/kernel/sched/features.h") ; next }
		f && /^[-+]SCHED_FEAT\(/ {
			s = $0; sub(/^[-+]SCHED_FEAT\(/, "", s); split(s, a, /[ ,)]+/)
			if (substr($0, 1, 1) == "-") { if (a[1] in def) { delete def[a[1]]; drop[a[1]] = 1 } ; next }
			if (!(a[1] in def)) order[++n] = a[1]
			def[a[1]] = a[2]; delete drop[a[1]]
		}
		END { for (i = 1; i <= n; i++) if (order[i] in def) print (def[order[i]] == "true" ? "" : "NO_") order[i] }'
}

# compare ROOT: prints what differs; exit 1 when anything does
compare() {
	local root=$1 p h
	p=$(patch_switches "$root") || return 1
	h=$(TOP=$root series_switches -d)
	[ -n "$p" ] || { echo "no +SCHED_FEAT line in any features.h hunk of series/"; return 1; }
	[ "$(sort <<<"$p")" = "$(sort <<<"$h")" ] && return 0
	diff <(sort <<<"$p") <(sort <<<"$h") | awk '
		/^[<>] / {
			n = $2; d = sub(/^NO_/, "", n) ? "false" : "true"
			if ($1 == "<") print "series/ adds " n " (default " d "), which switches.h lacks: give it { \"" n "\", " d " }"
			else print "switches.h has { \"" n "\", " d " }, which no patch of series/ adds: fix the list or the patch"
		}'
	return 1
}

out=$(compare "$TOP") || fail "series/ and switches.h disagree:
$out"
echo "# $(patch_switches "$TOP" | wc -l) switches, series and switches.h alike: $(patch_switches "$TOP" | xargs)"

t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir -p "$t/series" "$t/tools/testing/selftests/sched/placement"
printf '# comment\n0001-a.patch\n0002-b.patch kernel/x.c\n../MAINTAINERS.patch\n' >"$t/series/series"
feat() { printf 'Subject: x\n---\ndiff --git a/kernel/sched/features.h b/kernel/sched/features.h\n@@ -1 +1,2 @@\n SCHED_FEAT(OLD, true)\n%s\ndiff --git a/kernel/sched/fair.c b/kernel/sched/fair.c\n+SCHED_FEAT(NOT_A_FEATURE, true)\n' "$1"; }
feat '+SCHED_FEAT(ALPHA, true)' >"$t/series/0001-a.patch"
feat '+SCHED_FEAT(BETA, false)' >"$t/series/0002-b.patch"
list() { printf 'const struct placement_switch placement_switches[] = {\n'; printf '\t{ "%s",\t%s },\n' "$@"; printf '};\n'; }
list ALPHA true BETA false >"$t/tools/testing/selftests/sched/placement/switches.h"
out=$(compare "$t") || fail "a made-up series that agrees with its list failed: $out"
feat '+SCHED_FEAT(GAMMA, false)' >>"$t/series/0002-b.patch"
out=$(compare "$t") && fail "a switch missing from switches.h passed"
grep -qF 'series/ adds GAMMA (default false), which switches.h lacks: give it { "GAMMA", false }' <<<"$out" || fail "unexpected message: $out"
echo "# $out"
list ALPHA true BETA true GAMMA false >"$t/tools/testing/selftests/sched/placement/switches.h"
out=$(compare "$t") && fail "a default that differs passed"
grep -qF 'switches.h has { "BETA", true }, which no patch' <<<"$out" || fail "unexpected message: $out"
feat '-SCHED_FEAT(GAMMA, false)' >"$t/series/0003-c.patch"
echo 0003-c.patch >>"$t/series/series"
list ALPHA true BETA false >"$t/tools/testing/selftests/sched/placement/switches.h"
out=$(compare "$t") || fail "a switch a later patch takes back is still wanted: $out"
