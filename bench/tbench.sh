#!/usr/bin/env bash
# tbench (dbench's network benchmark) over loopback, as a workload for
# ab-run.sh: the 1:1 pattern the original wakeup RFC lost on (each client
# process talks to one server process, a sync wakeup each way). Starts
# tbench_srv, runs SECONDS of tbench with CLIENTS clients against it, stops
# the server, and prints "sp-metric: NAME VALUE" lines, which ab-run.sh
# passes on: the throughput (MB/s, higher is better) and tbench's maximum
# latency (ms); then, as lower-is-better counts of the run's connections,
# the difference of /proc/net/netstat's TcpExt counters over the tbench
# command: tbench_listen_overflows, a SYN or a handshake's last ACK that
# found the listener's accept queue full; tbench_listen_drops, those and
# every other packet the listener dropped (SYNs past a full queue of
# half-open connections: "Possible SYN flooding"); tbench_syn_retrans,
# the SYNs and SYN-ACKs sent again; tbench_tcp_timeouts, retransmission
# timers that expired (a segment unacknowledged for 200 ms or more, the
# timer doubling up to 120 s). tbench_srv listens with a backlog of
# 20 and every client connects at once: a SYN the listener drops is sent
# again 1 s later, then 2 s, 4 s ... after that (the kernel's
# TCP_TIMEOUT_INIT, doubled). tbench starts its clock only once every
# client has connected (each waits on a SysV semaphore after its connect
# and first exchange), so such a wait delays the start, not the measured
# seconds; but it is inside perf stat's run, whose cpus_utilised it
# thins. A run that measured nothing names these counts too, to tell that
# cause from others. They are the whole network namespace's, not the
# port's: a busy host adds its own. A kernel without a counter leaves its
# metric out and says so on stderr. tbench's port is fixed (7003): a
# server already there is an
# error, not a server to share. tbench warms up for the first SECONDS/5
# whole seconds (none below 5 s) and reports once a second, so a run of
# 1 s measures nothing, which is an error.
#
#   tbench.sh SECONDS CLIENTS
#
# Needs CONFIG_SYSVIPC (dbench keeps its clients' state in SysV shared
# memory) and loopback up. Under QEMU TCG the throughput is that of an
# emulated machine: compare A with B, never with hardware.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ $# = 2 ] && [[ $1 =~ ^[1-9][0-9]*$ && $2 =~ ^[1-9][0-9]*$ ]] ||
	{ echo "usage: tbench.sh SECONDS CLIENTS (both positive integers)" >&2; exit 2; }
secs=$1 clients=$2 port=7003
for b in tbench tbench_srv; do
	command -v "$b" >/dev/null || { echo "error: $b not found; install dbench (make deps)" >&2; exit 1; }
done
# IFF_UP is bit 0 of the interface flags.
lo=/sys/class/net/lo/flags
[ -r "$lo" ] && (($(<"$lo") & 1)) ||
	{ echo "error: loopback is down or missing; bring it up (ip link set lo up) or boot with CONFIG_INET" >&2; exit 1; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
if listening; then
	echo "error: port $port is taken (another tbench_srv?); stop it first" >&2
	exit 1
fi
# tbench's clients read their loadfile (dbench's client.txt, 26 MB) line
# by line all through the run. In a virtme-ng guest /usr is 9p without a
# cache, so each read would be a round trip to the host inside the timed
# run: part of the throughput would be the host's file server's, and under
# icount (sleep=off) the guest's clock jumps from timer to timer while
# every client waits on one. So the clients read a copy in
# TMPDIR (the guest's /tmp is tmpfs), made outside the timed run, once a
# boot. SP_TBENCH_LOADFILE stands for client.txt (the host test's fake).
src=${SP_TBENCH_LOADFILE:-/usr/share/dbench/client.txt}
[ -r "$src" ] || { echo "error: no tbench loadfile at $src; install dbench (make deps)" >&2; exit 1; }
load=${TMPDIR:-/tmp}/sp-tbench-$(id -u).txt
if [ "$(stat -c %s "$src")" != "$(stat -c %s "$load" 2>/dev/null)" ]; then
	cp "$src" "$load.$$" && mv "$load.$$" "$load" ||
		{ rm -f "$load.$$"; echo "error: cannot copy $src to $load (TMPDIR full?)" >&2; exit 1; }
fi
# The TcpExt counters of the run's connections: netstat_read prints "NAME
# VALUE" for each of NETSTAT_KEYS that SP_NETSTAT (the host test's fake of
# /proc/net/netstat) has, where the kernel keeps them as a line of names
# and a line of values, both starting "TcpExt:".
NETSTAT_KEYS="ListenOverflows ListenDrops TCPSynRetrans TCPTimeouts"
netstat_read() {
	awk -v keys="$NETSTAT_KEYS" '$1 == "TcpExt:" {
			if (!h) { for (i = 2; i <= NF; i++) name[i] = $i; h = 1; next }
			n = split(keys, k)
			for (i = 2; i <= NF; i++)
				for (j = 1; j <= n; j++)
					if (name[i] == k[j] && $i ~ /^[0-9]+$/) print k[j], $i
			exit
		}' "${SP_NETSTAT:-/proc/net/netstat}" 2>/dev/null || true
}
# netstat_diff BEFORE AFTER [words]: the counts over the run, as
# sp-metric lines (and a note on stderr naming the counters missing), or
# with "words" as one phrase for an error message, "NA" for a count missing.
netstat_diff() {
	awk -v keys="$NETSTAT_KEYS" -v words="${3:-}" -v src="${SP_NETSTAT:-/proc/net/netstat}" '
		FILENAME == ARGV[1] { a[$1] = $2; next }
		{ b[$1] = $2 }
		END {
			n = split(keys, k)
			split("tbench_listen_overflows tbench_listen_drops tbench_syn_retrans tbench_tcp_timeouts", m)
			split("listen overflows,listen drops,SYN retransmits,TCP timeouts", w, ",")
			for (j = 1; j <= n; j++) {
				ok = (k[j] in a) && (k[j] in b)
				v = ok ? b[k[j]] - a[k[j]] : "NA"
				if (words != "") s = s (j > 1 ? ", " : "") w[j] " " v
				else if (ok) printf "sp-metric: %s %d\n", m[j], v
				else miss = miss " " k[j]
			}
			if (words != "") print s
			else if (miss != "") print "tbench.sh: no TcpExt" miss " in " src " (an older kernel?): those metrics left out" > "/dev/stderr"
		}' "$1" "$2"
}
d=$(mktemp -d)
srv=
# The server forks a child per client, and the children keep its listening
# socket: it runs in a process group of its own (setsid), and stopping it
# means waiting until no process of that group is left, so that the port
# is free for the next run (ab-run.sh starts one right away).
stop_server() {
	[ -n "$srv" ] || return 0
	kill -TERM -- "-$srv" 2>/dev/null || true
	wait "$srv" 2>/dev/null || true
	for ((j = 0; j < 100; j++)); do
		kill -0 -- "-$srv" 2>/dev/null || break
		sleep 0.1
	done
	srv=
}
cleanup_on_exit 'stop_server; rm -rf "$d"'
setsid tbench_srv >"$d/srv" 2>&1 &
srv=$!
# Wait for the server's socket rather than for a fixed time: a connection
# that fails only means it is not listening yet. The server must still be
# ours once it answers: one that failed to listen says so in its output.
for ((i = 0; i < 100; i++)); do
	kill -0 "$srv" 2>/dev/null || { echo "error: tbench_srv exited: $(cat "$d/srv")" >&2; exit 1; }
	listening && break
	sleep 0.1
done
((i < 100)) || { echo "error: tbench_srv is not listening on port $port after 10 s" >&2; exit 1; }
if ! kill -0 "$srv" 2>/dev/null || grep -qi fail "$d/srv"; then
	echo "error: tbench_srv failed: $(cat "$d/srv")" >&2
	exit 1
fi
# The guest's seconds over the tbench command (/proc/uptime), for the
# error of a run that measured nothing: under icount a run whose clients
# all wait on a timer takes guest seconds and no host time.
up() { local u _; read -r u _ </proc/uptime && echo "$u"; }
# dbench's throughput is set only by its once-a-second SIGALRM handler, in
# its parent process, and only while the run's elapsed time is within the
# limit: for a 2 s run, by the first alarm alone. If the parent waits more
# than a second for a CPU, that alarm finds the limit passed and the run
# reports 0 MB/s. Under icount with 64 clients tbench's own operations
# waited up to 1.6 s (2026-12-07-icount-zen3, tbench_maxlat_ms). So the
# parent runs SCHED_FIFO, with reset-on-fork: its alarms are on
# time, and the clients it forks are SCHED_NORMAL at nice 0, as without.
# It wakes once a second and sums 64 counters: no load to speak of, and it
# takes no part in the fair class's wakeup decisions being measured.
command -v chrt >/dev/null || { echo "error: chrt not found; install util-linux" >&2; exit 1; }
chrt -R -f 1 true 2>/dev/null ||
	{ echo "error: cannot run tbench's parent SCHED_FIFO (chrt -R -f 1): run as root or with CAP_SYS_NICE" >&2; exit 1; }
netstat_read >"$d/net0"
up0=$(up)
chrt -R -f 1 tbench -c "$load" -t "$secs" "$clients" 127.0.0.1 >"$d/out" 2>&1 || {
	netstat_read >"$d/net1"
	echo "error: tbench $clients failed ($(netstat_diff "$d/net0" "$d/net1" words)): $(tail -n 5 "$d/out")" >&2
	exit 1
}
netstat_read >"$d/net1"
up1=$(up)
# The throughput is that of dbench's last report before its clean-up:
# bytes since the start (or since the end of a timed warm-up) over the
# seconds since, which is what its Throughput line prints when that report
# is an "execute" one. dbench 4.0 (Debian's) labels a report "warmup", and
# leaves Throughput at 0, while any client has yet to finish an operation
# (dbench.c's sig_alarm(); upstream 6994678, 2010, lifted that only for an
# explicit --warmup). In a 2 s run the report at 1 s is the only one, and
# under icount with 64 clients a client's first operation can take longer
# (operations there waited up to 1.6 s; connections, dropped SYNs and all,
# are made before dbench releases the clients): the run measured 0 MB/s while 62 of 64 clients had moved 290 MB/s (tb-ledger,
# docs/results/2026-12-07-calibration-zen3). So that report's rate counts,
# and tbench_idle_clients says how many clients had done nothing by it.
awk -v net="$(netstat_diff "$d/net0" "$d/net1" words)" -v clients="$clients" '
	$4 == "MB/sec" && ($5 == "execute" || $5 == "warmup") { rate = $3; label = $5; active = $1 }
	/^Throughput [0-9.]+ MB\/sec/ {
		found = 1
		thr = $2
		lat = $(NF - 1); sub(/^max_latency=/, "", lat)
	}
	END {
		if (!found) { print "error: tbench printed no throughput (over the run: " net ")" > "/dev/stderr"; exit 1 }
		if (thr + 0 == 0 && label == "warmup") thr = rate
		if (thr + 0 == 0) { print "error: tbench measured no throughput (too short a run? over it: " net ")" > "/dev/stderr"; exit 1 }
		printf "sp-metric: tbench_mbps %s\nsp-metric: tbench_maxlat_ms %s\n", thr, lat
		printf "sp-metric: tbench_idle_clients %d\n", label == "warmup" ? clients - active : 0
	}' "$d/out" || {
	echo "tbench took $(awk -v a="$up0" -v b="$up1" 'BEGIN { printf "%.1f", b - a }') s (uptime); its reports: $(grep -E ' sec ' "$d/out" | tr -s ' \n' ' '); its last lines: $(tail -n 4 "$d/out" | tr -s ' \n' ' ')" >&2
	exit 1
}
netstat_diff "$d/net0" "$d/net1"
