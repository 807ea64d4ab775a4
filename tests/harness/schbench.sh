#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/schbench.c (build/bin/sp-schbench), the schbench-style load of the
# schbench-N sets: its nearest-rank percentiles on known inputs (1..1000,
# and ten values out of order, where p99 and p99.9 are the largest), bad
# input refused, and a 1 s run on the host that prints every metric, with
# percentiles in order, requests done and a local share within 0-100%.
. "$(dirname "$0")/../lib.sh"
S=$BUILD/bin/sp-schbench
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"
out=$(seq 1 1000 | "$S" -p) || fail "sp-schbench -p failed: $out"
[ "$out" = "p50 500 p90 900 p99 990 p999 999" ] || fail "percentiles of 1..1000: $out"
out=$(printf '%s\n' 70 10 100 40 20 90 30 60 50 80 | "$S" -p) || fail "sp-schbench -p failed: $out"
[ "$out" = "p50 50 p90 90 p99 100 p999 100" ] || fail "percentiles of ten values: $out"
echo "# 1..1000: $(seq 1 1000 | "$S" -p); 10..100 shuffled: $out"
expect_error 1 "-p wants one number per line" -- sh -c "echo x | $S -p"
expect_error 1 "-p wants one number per line" -- sh -c "$S -p </dev/null"
expect_error 1 "usage: sp-schbench" -- "$S" extra
expect_error 1 "want 1 or more message threads" -- "$S" -m 0 -t 2
out=$("$S" -m 1 -t 2 -r 1 -s 20) || fail "a 1 s run failed: $out"
echo "$out" | sed 's/^/# /' | head -n 3
for m in wakeup request; do
	awk -v m="$m" '$1 == "sp-metric:" && $2 ~ "^" m "_p" { v[++n] = $3 }
		END { if (n != 4) exit 1; for (i = 2; i <= 4; i++) if (v[i] < v[i - 1]) exit 1 }' <<<"$out" ||
		fail "$m percentiles missing or out of order: $out"
done
awk '$2 == "rps" { ok = $3 > 0 } END { exit !ok }' <<<"$out" || fail "no requests: $out"
awk '$2 == "wake_local_pct" { ok = $3 >= 0 && $3 <= 100 } END { exit !ok }' <<<"$out" || fail "local share: $out"
