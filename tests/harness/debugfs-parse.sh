#!/usr/bin/env bash
# check: quick, budget 60 s
# The one parser of each debugfs file of the series that the kselftests and
# sp-stress read (placement.c's), on files written here: sis_scan as the
# kernel prints it (an LLC per line, nollc, the stopped count, the rows of
# the scan histogram, found) gives each LLC's first CPU and depth and the
# counts; a line the kernel does not print, or no "scanned 0" row, is
# refused. sis_wake gives its names and counts in order and whether
# schedstats were on; a comment line past the first, a first line that is
# not one, a name not of a-z and _ or of 32 characters, a count not of
# digits, are refused. Nothing touches the host.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
P=$TOP/tools/testing/selftests/sched/placement
# The driver: parses stdin as FILE (scan or wake) and prints what it
# found, or "refused".
cat >"$t/parse.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "placement.h"

int main(int argc, char **argv)
{
	static char text[BUF_SIZE];
	size_t n = fread(text, 1, sizeof(text) - 1, stdin);

	text[n] = '\0';
	if (argc == 2 && !strcmp(argv[1], "scan")) {
		struct sis_scan s;

		if (sis_scan_parse(text, &s)) {
			puts("refused");
			return 0;
		}
		for (int i = 0; i < s.nr_llc; i++)
			printf("llc %d depth %d\n", s.llc_cpu[i], s.llc_depth[i]);
		printf("stopped %lu unscanned %lu scans %lu deepest %d found %lu\n",
		       s.stopped, s.unscanned, s.scans, s.deepest, s.found);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "wake")) {
		struct sis_wake w;

		if (sis_wake_parse(text, &w)) {
			puts("refused");
			return 0;
		}
		printf("schedstats %s\n", w.schedstats ? "on" : "off");
		for (int i = 0; i < w.nr; i++)
			printf("%s %lu\n", w.name[i], w.count[i]);
		return 0;
	}
	return 2;
}
C
gcc -O2 -Wall -Wextra -Werror -I"$P" -o "$t/parse" "$t/parse.c" "$P/placement.c" ||
	fail "the driver does not build against placement.c"
# parses FILE WANT: stdin, as FILE, gives WANT.
parses() {
	local got
	got=$("$t/parse" "$1") || fail "the driver failed on $1"
	[ "$got" = "$2" ] || fail "$1 gave:
$got
want:
$2"
}

scan='# llc <cpus> <nr_idle_scan>
llc 0-3 3
llc 4-7,16-19 8
# online CPUs without an LLC domain: no scan
nollc 8
# wakeups SIS_UTIL stopped before any scan (schedstats on)
stopped 164
# cpus_scanned wakeups (0: no CPU of the LLC allowed; the last row counts 32 or more)
scanned 0 5
scanned 1 423
scanned 2 821
scanned 3 170
scanned 4 0
# of the scans above, those that found an idle CPU
found 11'
parses scan <<<"$scan" 'llc 0 depth 3
llc 4 depth 8
stopped 164 unscanned 5 scans 1414 deepest 3 found 11'
parses scan <<<"${scan/scanned 4 0/scanned 4 x}" refused
parses scan <<<"${scan/found 11/found 11
extra 1}" refused
parses scan <<<"${scan/scanned 0 5/}" refused
parses scan <<<"" refused
echo "# sis_scan: LLCs, counts and the deepest row read; a bad row, a line not the kernel's, no row 0 refused"

wake='# <decision> <wakeups> (schedstats on)
fit_target 260
fit_prev 36
bias_last 18446744073709551615
limit_idle_near 0'
parses wake <<<"$wake" 'schedstats on
fit_target 260
fit_prev 36
bias_last 18446744073709551615
limit_idle_near 0'
parses wake <<<"${wake/on)/off)}" 'schedstats off
fit_target 260
fit_prev 36
bias_last 18446744073709551615
limit_idle_near 0'
parses wake <<<"$wake
# again" refused
parses wake <<<"${wake#*)
}" refused
parses wake <<<"${wake/fit_prev/Fit_prev}" refused
parses wake <<<"${wake/fit_prev 36/fit_prev 3x}" refused
parses wake <<<"${wake/fit_prev 36/fit_prev }" refused
parses wake <<<"${wake/fit_prev/a_name_of_thirty_two_characters_}" refused
echo "# sis_wake: names, counts and schedstats read; a late comment, no comment first, a bad name or count refused"
