#!/usr/bin/env bash
# check: quick, budget 30 s
# scripts/series-lines.sh (the KCSAN kernel's line-level scope) prints
# FILE:LINE for every line the series adds or changes in kernel/sched/*.c
# and *.h, numbered as in the series' tip: on a fixture tree whose "series"
# adds lines, changes one, deletes one, adds a file and touches a file
# outside kernel/sched; refs/sp/base and HEAD by default, or given.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
g() { git -C "$t/tree" -c user.name=t -c user.email=t@t "$@"; }
mkdir -p "$t/tree/kernel/sched" "$t/tree/mm"
g init -q
printf 'a\nb\nc\nd\ne\nf\n' >"$t/tree/kernel/sched/fair.c"
printf 'x\ny\n' >"$t/tree/kernel/sched/sched.h"
printf 'm\n' >"$t/tree/mm/page_alloc.c"
g add -A && g commit -qm base && g update-ref refs/sp/base HEAD
# fair.c: b changed (line 2), c deleted, two lines added after e (now 5, 6);
# sched.h: a line added at the top; a new file; mm/ changed (not listed).
printf 'a\nB\nd\ne\nnew1\nnew2\nf\n' >"$t/tree/kernel/sched/fair.c"
printf 'top\nx\ny\n' >"$t/tree/kernel/sched/sched.h"
printf 'one\ntwo\n' >"$t/tree/kernel/sched/placement.c"
printf 'M\n' >"$t/tree/mm/page_alloc.c"
g add -A && g commit -qm series
want='kernel/sched/fair.c:2
kernel/sched/fair.c:5
kernel/sched/fair.c:6
kernel/sched/placement.c:1
kernel/sched/placement.c:2
kernel/sched/sched.h:1'
out=$("$TOP/scripts/series-lines.sh" "$t/tree" | sort) || fail "series-lines.sh failed"
[ "$out" = "$want" ] || fail "series-lines.sh printed: $out"
# Each listed line is one the series wrote, as the tip has it.
[ "$(sed -n 5p "$t/tree/kernel/sched/fair.c")" = new1 ] || fail "fixture: fair.c:5 is not new1"
# Given base and tip: from the series commit to itself, nothing.
out=$("$TOP/scripts/series-lines.sh" "$t/tree" HEAD HEAD) || fail "series-lines.sh HEAD HEAD failed"
[ -z "$out" ] || fail "series-lines.sh HEAD HEAD printed: $out"
# A tree without the base ref is an error that says what to do.
g update-ref -d refs/sp/base
expect_error 1 "no commit refs/sp/base.*make tree" -- "$TOP/scripts/series-lines.sh" "$t/tree"
echo "# $(echo "$want" | wc -l) lines on the fixture"
exit 0
