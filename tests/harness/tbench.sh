#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/tbench.sh, the tbench workload of make bench, on the host: its two
# metrics in ab-run.sh's "sp-metric:" form, its throughput higher-is-better
# in the tbench sets' report, and clear errors (bad arguments, the port taken, no
# dbench) that leave no tbench_srv behind. Its counts of dropped SYNs from
# a fake /proc/net/netstat (SP_NETSTAT) that a wrapper of tbench advances
# during the run: the differences by name, in the metrics and in the error
# of a run that measured nothing, and a kernel without the counters.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
srv=
cleanup_on_exit '[ -z "$srv" ] || kill "$srv" 2>/dev/null; rm -rf "$t"'
T=$TOP/bench/tbench.sh
command -v tbench >/dev/null && command -v tbench_srv >/dev/null || fail "dbench missing; run make deps"
if pgrep -x tbench_srv >/dev/null; then
	fail "a tbench_srv is already running on this host; this test needs port 7003"
fi
"$T" 2 2 >"$t/out" 2>&1 || fail "tbench.sh failed: $(cat "$t/out")"
grep -qE '^sp-metric: tbench_mbps [0-9]+\.[0-9]+$' "$t/out" || fail "no throughput in: $(cat "$t/out")"
grep -qE '^sp-metric: tbench_maxlat_ms [0-9]+\.[0-9]+$' "$t/out" || fail "no maximum latency in: $(cat "$t/out")"
awk '$2 == "tbench_mbps" { exit !($3 > 0) }' "$t/out" || fail "throughput not positive: $(cat "$t/out")"
echo "# $(tr '\n' ' ' <"$t/out")(host, 2 s, 2 clients)"
pgrep -x tbench_srv >/dev/null && fail "tbench_srv left running"
# More MB/s is better: A at 200 against B at 100 is +100%, not -100%.
# The direction is the tbench sets' (bench/sets), as report.sh passes it.
higher=$("$TOP/bench/series-ab.sh" -d tbench-2 | cut -d'|' -f4 | tr -d ' ')
out=$(printf 'A tbench_mbps 200\nB tbench_mbps 100\nA tbench_mbps 210\nB tbench_mbps 110\n' | "$BUILD/bin/stats" -H "$higher")
echo "$out" | grep -qE '^Amean tbench_mbps .* \+?9[0-9]\.[0-9]+% ' || fail "stats: throughput not higher-is-better: $out"
expect_error 2 'usage: tbench.sh' -- "$T" 0 1
# tbench reports once a second, so a 1 s run ends before its first report:
# a run that measured nothing fails, and stops its server too.
expect_error 1 'tbench measured no throughput' -- "$T" 1 1
pgrep -x tbench_srv >/dev/null && fail "tbench_srv left running after a run that measured nothing"
# The clients read a copy of the loadfile in TMPDIR, not /usr's (a guest's
# /usr is 9p, read inside the timed run): a wrapper first in PATH keeps
# tbench's arguments.
mkdir "$t/wrap" "$t/tmp"
printf '#!/bin/sh\necho "$@" >>"%s/args"\nchrt -p $$ >"%s/policy"; sh -c '"'"'chrt -p $$'"'"' >"%s/child"\nexec %s "$@"\n' "$t" "$t" "$t" "$(command -v tbench)" >"$t/wrap/tbench"
chmod +x "$t/wrap/tbench"
copy=$t/tmp/sp-tbench-$(id -u).txt
TMPDIR=$t/tmp PATH=$t/wrap:$PATH "$T" 2 1 >"$t/out" 2>&1 || fail "tbench.sh with a wrapper failed: $(cat "$t/out")"
grep -q -- "-c $copy " "$t/args" || fail "tbench not given the copy $copy: $(cat "$t/args")"
cmp -s /usr/share/dbench/client.txt "$copy" || fail "$copy is not client.txt"
# dbench's parent, whose alarms alone set the throughput, runs SCHED_FIFO
# with reset-on-fork, so what it forks runs SCHED_OTHER as without it.
grep -q 'policy: SCHED_FIFO|SCHED_RESET_ON_FORK$' "$t/policy" || fail "tbench's parent not SCHED_FIFO, reset on fork: $(cat "$t/policy")"
grep -q 'policy: SCHED_OTHER$' "$t/child" || fail "what tbench forks is not SCHED_OTHER: $(cat "$t/child")"
echo "# tbench: $(head -n1 "$t/policy"); its child: $(head -n1 "$t/child")"
# A run whose only report came while clients had yet to finish an
# operation: dbench 4.0 calls it warm-up and prints Throughput 0 (as in
# tb-ledger under icount); its rate counts, with the idle clients named.
# A fake tbench prints that output (tbench_srv is still started and
# stopped).
printf '#!/bin/sh\ncat <<EOF\n  62       115   290.89 MB/sec  warmup   1 sec  latency 653.316 ms\n  64  cleanup   2 sec\nThroughput 0 MB/sec  64 clients  64 procs  max_latency=653.316 ms\nEOF\n' >"$t/fake-tbench"
mkdir "$t/fake" && cp "$t/fake-tbench" "$t/fake/tbench" && chmod +x "$t/fake/tbench"
PATH=$t/fake:$PATH "$T" 2 64 >"$t/out" 2>&1 || fail "a warm-up-only run failed: $(cat "$t/out")"
grep -qx 'sp-metric: tbench_mbps 290.89' "$t/out" || fail "a warm-up-only run: not its report's rate: $(cat "$t/out")"
grep -qx 'sp-metric: tbench_idle_clients 2' "$t/out" || fail "a warm-up-only run: not 2 idle clients: $(cat "$t/out")"
grep -qx 'sp-metric: tbench_maxlat_ms 653.316' "$t/out" || fail "a warm-up-only run: no latency: $(cat "$t/out")"
echo "# a warm-up-only run: $(grep -E 'tbench_(mbps|idle)' "$t/out" | tr '\n' ' ')"
# With no report at all, still an error.
sed -i '/warmup/d' "$t/fake/tbench"
expect_error 1 'tbench measured no throughput' -- env PATH="$t/fake:$PATH" "$T" 2 64
# Where that cannot be had, an error that names the fix, before any run.
printf '#!/bin/sh\nexit 1\n' >"$t/wrap/chrt"
chmod +x "$t/wrap/chrt"
expect_error 1 'cannot run tbench.s parent SCHED_FIFO .*CAP_SYS_NICE' -- env PATH="$t/wrap:$PATH" "$T" 2 1
rm "$t/wrap/chrt"
expect_error 1 'no tbench loadfile at' -- env SP_TBENCH_LOADFILE="$t/none" "$T" 2 1
# The listener's drops over the run, from SP_NETSTAT: TcpExt's names on one
# line, its values on the next, in an order of the fake's own (the values
# are found by name), beside an IpExt pair that shares a name. A wrapper
# of tbench moves the file on to its state after the run before tbench
# starts: ListenOverflows 3 -> 8, ListenDrops 4 -> 11, TCPSynRetrans
# 10 -> 22.
netstat() { # OVERFLOWS DROPS SYNRETRANS [NAMES]: a fake /proc/net/netstat
	printf 'TcpExt: SyncookiesSent %s TCPTimeouts\nTcpExt: 0 %s %s %s 99\n' \
		"${4:-ListenDrops TCPSynRetrans ListenOverflows}" "$2" "$3" "$1"
	printf 'IpExt: InNoRoutes ListenDrops\nIpExt: 0 1000\n'
}
netstat 3 4 10 >"$t/netstat"
netstat 8 11 22 >"$t/net.after"
printf '#!/bin/sh\ncp "%s" "%s"\nexec %s "$@"\n' "$t/net.after" "$t/netstat" "$(command -v tbench)" >"$t/wrap/tbench"
SP_NETSTAT=$t/netstat PATH=$t/wrap:$PATH "$T" 2 1 >"$t/out" 2>"$t/err" || fail "tbench.sh with a fake netstat failed: $(cat "$t/out" "$t/err")"
want=$'sp-metric: tbench_listen_overflows 5\nsp-metric: tbench_listen_drops 7\nsp-metric: tbench_syn_retrans 12'
[ "$(grep -E '^sp-metric: tbench_(listen|syn)_' "$t/out")" = "$want" ] ||
	fail "not the drops over the run ($want): $(cat "$t/out")"
[ ! -s "$t/err" ] || fail "a kernel with every counter got a note: $(cat "$t/err")"
grep -qx 'sp-metric: tbench_tcp_timeouts 0' "$t/out" || fail "no TCP timeouts (99 -> 99) in: $(cat "$t/out")"
echo "# $(grep -E '^sp-metric: tbench_(listen|syn)_' "$t/out" | tr '\n' ' ')(a fake netstat)"
# A run that measured nothing says whether SYNs were dropped.
netstat 3 4 10 >"$t/netstat"
expect_error 1 'no throughput \(too short a run\? over it: listen overflows 5, listen drops 7, SYN retransmits 12, TCP timeouts 0\)' -- \
	env SP_NETSTAT="$t/netstat" PATH="$t/wrap:$PATH" "$T" 1 1
# ... and how many guest seconds the tbench command took, with its last
# lines (under icount a run whose clients all wait on a timer takes guest
# time and no host time).
expect_error 1 'tbench took [0-9]+\.[0-9] s \(uptime\); its reports: .*; its last lines: ' -- "$T" 1 1
# A kernel without TCPSynRetrans: that metric is left out, and said so,
# the others kept; with no such file, none of them, and the run goes on.
netstat 3 4 10 'ListenDrops TCPOther ListenOverflows' >"$t/netstat"
netstat 8 11 22 'ListenDrops TCPOther ListenOverflows' >"$t/net.after"
SP_NETSTAT=$t/netstat PATH=$t/wrap:$PATH "$T" 2 1 >"$t/out" 2>"$t/err" || fail "tbench.sh without TCPSynRetrans failed: $(cat "$t/out" "$t/err")"
want=$'sp-metric: tbench_listen_overflows 5\nsp-metric: tbench_listen_drops 7'
[ "$(grep -E '^sp-metric: tbench_(listen|syn)_' "$t/out")" = "$want" ] ||
	fail "a kernel without TCPSynRetrans: not just the two drops ($want): $(cat "$t/out")"
grep -qx "tbench.sh: no TcpExt TCPSynRetrans in $t/netstat (an older kernel?): those metrics left out" "$t/err" ||
	fail "a kernel without TCPSynRetrans: no note naming it: $(cat "$t/err")"
netstat 3 4 10 'ListenDrops TCPOther ListenOverflows' >"$t/netstat"
expect_error 1 'listen overflows 5, listen drops 7, SYN retransmits NA, TCP timeouts 0\)' -- \
	env SP_NETSTAT="$t/netstat" PATH="$t/wrap:$PATH" "$T" 1 1
# ... and how many guest seconds the tbench command took, with its last
# lines (under icount a run whose clients all wait on a timer takes guest
# time and no host time).
expect_error 1 'tbench took [0-9]+\.[0-9] s \(uptime\); its reports: .*; its last lines: ' -- "$T" 1 1
SP_NETSTAT=$t/none "$T" 2 1 >"$t/out" 2>"$t/err" || fail "tbench.sh without a netstat failed: $(cat "$t/out" "$t/err")"
grep -q '^sp-metric: tbench_mbps ' "$t/out" || fail "no throughput without a netstat: $(cat "$t/out")"
grep -qE '^sp-metric: tbench_(listen|syn|tcp)_' "$t/out" && fail "drops counted from no netstat: $(cat "$t/out")"
grep -q "no TcpExt ListenOverflows ListenDrops TCPSynRetrans TCPTimeouts in $t/none" "$t/err" || fail "no netstat: no note: $(cat "$t/err")"
echo "# $(cat "$t/err")"
# Back to back, as ab-run.sh runs them: each finds the port free.
for i in 1 2 3; do
	"$T" 2 1 >"$t/out" 2>&1 || fail "run $i of 3 back to back failed: $(cat "$t/out")"
done
expect_error 2 'usage: tbench.sh' -- "$T" 1
expect_error 2 'usage: tbench.sh' -- "$T" 1 x
# A server already on tbench's port is named, not shared.
tbench_srv >/dev/null 2>&1 &
srv=$!
wait_until 10 "$srv" bash -c 'exec 3<>/dev/tcp/127.0.0.1/7003' 2>/dev/null || fail "tbench_srv did not start"
expect_error 1 'port 7003 is taken' -- "$T" 1 1
kill "$srv"
wait "$srv" 2>/dev/null || true
srv=
# A PATH with what tbench.sh runs but no dbench.
mkdir "$t/bin"
for c in bash dirname mktemp rm cat setsid sleep awk tail; do
	ln -s "$(command -v "$c")" "$t/bin/$c"
done
expect_error 1 'tbench not found; install dbench' -- env PATH="$t/bin" "$T" 1 1
