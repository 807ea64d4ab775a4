#!/usr/bin/env bash
# Scan guest console logs and dmesg for splats. Prints each distinct hit and
# exits 1 if there is any, 0 if the logs are clean.
#   console-check.sh FILE...
# The kernel command line is skipped: it carries "panic=-1". Lockdep's own
# banner ("RCU lockdep checking is enabled") is not a splat; its reports all
# start with WARNING: or BUG:, and end with "INFO: lockdep is turned off".
set -uo pipefail
hits=$(cat "$@" 2>/dev/null | grep -iv 'command line' |
	grep -E 'BUG:|WARNING:|Oops|KASAN:|Kernel panic|soft lockup|hard LOCKUP|rcu: .*stall|INFO: task .* blocked|possible (recursive|circular) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|INFO: lockdep is turned off' |
	sed 's/^\[ *[0-9.]*\] //' | sort -u | head -n 20)
[ -z "$hits" ] && exit 0
echo "$hits"
exit 1
