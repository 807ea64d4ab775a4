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
set -uo pipefail
context=0
if [ "${1:-}" = -c ]; then
	context=$2
	shift 2
fi
splat='BUG:|WARNING:|Oops|KASAN:|Kernel panic|soft lockup|hard LOCKUP|rcu: .*stall|INFO: task .* blocked|possible (recursive|circular) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|INFO: lockdep is turned off'
hits=$(cat "$@" 2>/dev/null | grep -iv 'command line' | grep -E "$splat" |
	sed 's/^\[ *[0-9.]*\] //' | sort -u | head -n 20)
[ -z "$hits" ] && exit 0
echo "$hits"
if [ "$context" -gt 0 ]; then
	for f in "$@"; do
		first=$(grep -iv 'command line' "$f" 2>/dev/null | grep -n -m 1 -E "$splat" | cut -d: -f1)
		[ -n "$first" ] || continue
		echo "--- the first report, from $(basename "$f"):"
		grep -iv 'command line' "$f" | tail -n "+$first" | head -n "$context"
		break
	done
fi
exit 1
