#!/usr/bin/env bash
# Print, one a line, the kernel functions the series adds or changes: the
# functions its patches' hunks under kernel/ sit in (git's hunk-header
# context), those whose first line is in a hunk (added or as context), and
# those of the KUnit overlay. Over-inclusion is safe for its one user, the
# KCSAN kernel's scope (console-check.sh KCSAN_SCOPE): a function listed by
# mistake only makes a report count against the series. Static helpers the
# compiler inlines show in reports as their callers, which are listed
# because the call was added inside them.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
patches=(series/*.patch)
[ ${#patches[@]} -gt 0 ] || { echo "series-functions: no series/*.patch" >&2; exit 1; }
{
	for p in "${patches[@]}"; do
		awk '
			/^diff --git / { keep = ($3 ~ /^a\/kernel\//); next }
			!keep { next }
			/^@@/ { sub(/^@@[^@]*@@ */, ""); print; next }
			/^[+ ][A-Za-z_].*\(/ { print substr($0, 2) }
		' "$p"
	done
	cat kernel/sched/tests/*.c | grep -E '^[A-Za-z_].*\('
} | sed -nE 's/^([^(]*[^A-Za-z0-9_(])?([A-Za-z_][A-Za-z0-9_]*)\(.*/\2/p' |
	grep -vE '^([A-Z0-9_]+|static_assert|sizeof|typeof|__setup|late_initcall|kunit_test_suites?)$' | sort -u
