#!/usr/bin/env bash
# Print, one a line as FILE:LINE, the lines the series adds or changes in
# kernel/sched/ (*.c and *.h): the new side's lines of `git diff -U0` from the
# base to the series' tip of the kernel tree.
#
#   series-lines.sh [TREE [BASE [TIP]]]
#
# TREE defaults to build/linux, BASE to its refs/sp/base, TIP to its HEAD.
# The one user is the KCSAN kernel's line-level scope (console-check.sh
# KCSAN_LINES): a report counts against the series only when one of its
# access sites, resolved with faddr2line on the same tree's vmlinux, is one
# of these lines. Lines are numbered as in TIP, the tree the kernel is built
# from. A hunk that only deletes lines adds none here: what it changes shows
# on lines the series does not write, and is out of a line-level scope.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=${1:-$BUILD/linux}
base=${2:-refs/sp/base}
tip=${3:-HEAD}
git -C "$tree" rev-parse -q --verify "$base^{commit}" >/dev/null ||
	die "series-lines: no commit $base in $tree; run 'make tree' first"
git -C "$tree" rev-parse -q --verify "$tip^{commit}" >/dev/null ||
	die "series-lines: no commit $tip in $tree"
# Fixed prefixes and no renames, whatever the user's git config says: a file
# the series renames then shows as all new, which over-includes (safe).
git -C "$tree" -c core.quotepath=off diff -U0 --no-color --no-ext-diff --no-renames \
	--src-prefix=a/ --dst-prefix=b/ "$base" "$tip" -- 'kernel/sched/*.c' 'kernel/sched/*.h' |
	awk '
		/^diff --git / { file = ""; next }
		/^\+\+\+ / { file = ($2 == "/dev/null") ? "" : substr($2, 3); next }
		/^--- / { next }
		/^@@ / {
			n = $3; sub(/^\+/, "", n); sub(/,.*/, "", n); n += 0
			next
		}
		file != "" && /^\+/ { print file ":" n; n++ }
	'
