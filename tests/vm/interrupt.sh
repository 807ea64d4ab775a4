#!/usr/bin/env bash
# check: full, budget 600 s
# The VM runner and `make bench` interrupted leave nothing behind: no QEMU,
# no run directory, no results directory under a final name; and the next
# run works.
#   - QEMU killed (SIGKILL) under a running guest: vm.sh reports the guest's
#     death (status 99) and cleans up.
#   - SIGTERM to vm.sh alone (kill PID): it stops the guest and exits 143
#     within seconds, not when the guest's command ends.
#   - SIGINT to the process group (Ctrl-C at the terminal), vm.sh and bench:
#     the guest stops; bench leaves only results/<...>.partial.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup() {
	pkill -KILL -f "^[^ ]*qemu-system[^ ]* .*$t/" 2>/dev/null || true
	rm -rf "$t"
}
cleanup_on_exit cleanup
mkdir -p "$t/tmp" "$t/results"
export TMPDIR=$t/tmp SP_RESULTS=$t/results
V=$TOP/scripts/vm.sh

qemu_pid() { pgrep -f "^[^ ]*qemu-system[^ ]* .*$t/tmp" | head -n1; }
qemu_runs() { [ -n "$(qemu_pid)" ]; }
qemu_gone() { [ -z "$(qemu_pid)" ]; }
wait_qemu() { # seconds: until QEMU runs, then let the guest get going
	wait_until 60 - qemu_runs || fail "QEMU never started"
	sleep "$1"
}
assert_clean() { # what
	wait_until 20 - qemu_gone || fail "after $1, QEMU is still running"
	[ -z "$(ls -A "$t/tmp")" ] || fail "after $1, left in TMPDIR: $(ls -A "$t/tmp")"
	echo "# $1: no QEMU, no run directory left"
}

# QEMU killed under the guest.
"$V" -t 300 -- sleep 600 >"$t/log" 2>&1 &
pid=$!
wait_qemu 15
kill -KILL "$(qemu_pid)"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 99 ] || fail "QEMU killed: vm.sh exit $rc, want 99: $(cat "$t/log")"
grep -q 'guest died before the command finished' "$t/log" || fail "QEMU killed: no diagnosis: $(cat "$t/log")"
assert_clean "QEMU killed (vm.sh exit 99)"

# signal_vm SIG WANT WHAT [LAUNCHER...]: boot a guest that would run for
# 10 minutes, send SIG to the launched process once the guest runs; vm.sh
# must stop within 20 s with status WANT and leave nothing behind.
signal_vm() {
	local sig=$1 want=$2 what=$3 pid rc=0 s
	shift 3
	"$@" "$V" -t 300 -- sleep 600 >"$t/log" 2>&1 &
	pid=$!
	wait_qemu 10
	s=$SECONDS
	kill -"$sig" "$pid"
	wait "$pid" || rc=$?
	[ "$rc" = "$want" ] || fail "$what: vm.sh exit $rc, want $want: $(cat "$t/log")"
	[ $((SECONDS - s)) -le 20 ] || fail "$what: vm.sh took $((SECONDS - s)) s to stop"
	assert_clean "$what (exit $rc after $((SECONDS - s)) s)"
}
# SIGTERM to vm.sh alone.
signal_vm TERM 143 "SIGTERM to vm.sh"
# SIGINT to the process group, as Ctrl-C sends it. timeout(1) stands in for
# the terminal: a SIGINT it gets goes to its child and the child's whole
# group, and it runs the child with SIGINT not ignored (a plain background
# job of this script would have it ignored). vm.sh must die of it (130).
signal_vm INT 130 "SIGINT to the group of vm.sh" timeout 900

# make bench, interrupted once the first A/B pair has run in the guest (its
# progress line shows), so that the results directory has raw data in it.
bench=(env PRESET=2s4llc REPS=2 SETS=pipe PIPE_LOOPS=2000 "$TOP/scripts/bench.sh")
timeout 900 "${bench[@]}" >"$t/log" 2>&1 &
pid=$!
rc=0
wait_until 300 "$pid" grep -q '^ab-run: 1/' "$t/log" || rc=$?
[ "$rc" != 2 ] || fail "bench ended before its first pair: $(cat "$t/log")"
[ "$rc" = 0 ] || fail "no progress from bench in 300 s: $(cat "$t/log")"
kill -INT "$pid"
wait "$pid" || rc=$?
[ "$rc" -ge 128 ] || fail "bench with SIGINT: exit $rc, want death by a signal: $(cat "$t/log")"
assert_clean "SIGINT to the group of make bench after its first pair (exit $rc)"
done=$(find "$t/results" -mindepth 1 -maxdepth 1 ! -name '*.partial')
[ -z "$done" ] || fail "an interrupted bench left a results directory under a final name: $done"
[ -n "$(find "$t/results" -mindepth 1 -maxdepth 1 -name '*-bench.partial')" ] ||
	fail "an interrupted bench left no .partial directory: $(ls "$t/results")"
# The next run works and completes its directory.
"${bench[@]}" >"$t/log" 2>&1 || fail "bench after the interrupted one failed: $(tail -n 20 "$t/log")"
d=$(find "$t/results" -mindepth 1 -maxdepth 1 -name '*-bench' ! -name '*.partial')
[ -n "$d" ] && grep -q '^== ' "$d/report.txt" && [ -s "$d/vm/console.log" ] ||
	fail "bench after the interrupted one: no complete results directory: $(ls -R "$t/results")"
# Its set's runs, table, plot and JSON: 2 runs a side of each metric.
for f in pipe.raw pipe.meta pipe.csv pipe.png results.json; do
	[ -s "$d/sets/$f" ] || fail "bench rerun: no $f in sets/: $(ls "$d/sets")"
done
[ "$(grep -c '^A time_s ' "$d/sets/pipe.raw")" = 2 ] && [ "$(grep -c '^B time_s ' "$d/sets/pipe.raw")" = 2 ] ||
	fail "bench rerun: sets/pipe.raw lacks 2 runs a side: $(cat "$d/sets/pipe.raw")"
assert_clean "bench rerun"
echo "# bench: interrupted run left $(basename "$(ls -d "$t"/results/*.partial)"), the rerun $(basename "$d")"
