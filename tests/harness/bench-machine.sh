#!/usr/bin/env bash
# check: quick, budget 60 s
# The machine record of an A/B run (bench/machine.sh, written by
# bench/series-ab.sh to SP_OUT/machine before the first set, summed up in
# make bench's report.txt by machine_summary), against a fake sysfs and
# /proc: the kernel command line, SMT control and active, the NUMA nodes
# with their CPUs, sockets and NPS (4 nodes on 2 sockets: NPS2), the load
# average and a /proc/stat sample, busy or idle (a stand-in sleep on PATH
# moves the ticks between the two reads); a machine busier than
# IDLE_MAX_PCT gets a warning with its numbers, on stderr from
# series-ab.sh and in the summary; an idle one none.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
sys=$t/sys proc=$t/proc
mkdir -p "$sys/devices/system/cpu/smt" "$proc" "$t/bin"
echo on >"$sys/devices/system/cpu/smt/control"
echo 1 >"$sys/devices/system/cpu/smt/active"
for c in 0 1 2 3 4 5 6 7; do
	mkdir -p "$sys/devices/system/cpu/cpu$c/topology"
	echo $((c / 4)) >"$sys/devices/system/cpu/cpu$c/topology/physical_package_id"
done
for n in 0 1 2 3; do
	mkdir -p "$sys/devices/system/node/node$n"
	echo "$((2 * n))-$((2 * n + 1))" >"$sys/devices/system/node/node$n/cpulist"
done
mkdir -p "$sys/devices/system/node/node4"
echo >"$sys/devices/system/node/node4/cpulist" # memory only: no node of CPUs
echo "BOOT_IMAGE=/vmlinuz-7.3.4-sp root=/dev/sda1 ro mitigations=off" >"$proc/cmdline"
echo "3.50 2.00 1.00 4/300 1234" >"$proc/loadavg"
# The second read of /proc/stat comes after sleep: the stand-in writes
# STAT1 there. user nice system idle iowait irq softirq steal
echo "cpu  100 0 100 800 0 0 0 0 0 0" >"$proc/stat"
printf '#!/bin/sh\necho "$STAT1" >"%s/stat"\n' "$proc" >"$t/bin/sleep"
chmod +x "$t/bin/sleep"
export SP_SYSFS=$sys SP_PROC=$proc PATH=$t/bin:$PATH
out=$(STAT1="cpu  400 0 200 900 0 0 0 0 0 0" "$TOP/bench/machine.sh") || fail "machine.sh failed: $out"
printf '%s\n' "cmdline BOOT_IMAGE=/vmlinuz-7.3.4-sp root=/dev/sda1 ro mitigations=off" "smt_control on" "smt_active 1" \
	"sockets 2" "node0 0-1" "node1 2-3" "node2 4-5" "node3 6-7" "nodes 4" "nps 2" "loadavg 3.50 2.00 1.00" \
	"busy_pct 80.0" "sample_s 1" "idle no" >"$t/want"
diff "$t/want" <(echo "$out") >&2 || fail "machine.sh, a busy machine: $out"
echo "$out" >"$t/machine"
sum=$(machine_summary "$t/machine")
echo "$sum" | grep -qxF "  SMT      control on, active 1" || fail "no SMT in the summary: $sum"
echo "$sum" | grep -qxF "  NUMA     4 nodes on 2 sockets (NPS2): node0 0-1 node1 2-3 node2 4-5 node3 6-7" || fail "no NUMA in the summary: $sum"
echo "$sum" | grep -qxF "WARNING: the machine was not idle before the run: 80.0% of its CPUs busy over 1 s (load average 3.50 2.00 1.00); other work skews both sides" ||
	fail "no warning for a busy machine: $sum"
echo "# $(echo "$sum" | grep WARNING)"
echo "cpu  100 0 100 800 0 0 0 0 0 0" >"$proc/stat"
out=$(STAT1="cpu  101 0 100 899 0 0 0 0 0 0" "$TOP/bench/machine.sh") || fail "machine.sh failed: $out"
echo "$out" | grep -qx 'busy_pct 1.0' && echo "$out" | grep -qx 'idle yes' || fail "machine.sh, an idle machine: $out"
echo "$out" >"$t/machine"
! machine_summary "$t/machine" | grep -q WARNING || fail "a warning for an idle machine: $(machine_summary "$t/machine")"
expect_error 2 "IDLE_SECS=x: want seconds" -- env IDLE_SECS=x "$TOP/bench/machine.sh"

# series-ab.sh records it before the first set and warns on stderr.
mkdir -p "$t/dbg/sched" "$t/procsys/kernel" "$t/out"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV" >"$t/dbg/sched/features"
echo 0 >"$t/procsys/kernel/sched_schedstats"
echo "cpu  100 0 100 800 0 0 0 0 0 0" >"$proc/stat"
STAT1="cpu  400 0 200 900 0 0 0 0 0 0" SP_DEBUGFS=$t/dbg SP_PROCSYS=$t/procsys SP_WHERE=0 SP_OUT=$t/out SP_REPORT=0 \
	PIPE_LOOPS=1000 "$TOP/bench/series-ab.sh" -n 2 pipe 2>"$t/err" || fail "series-ab.sh failed: $(cat "$t/err")"
grep -qx 'nps 2' "$t/out/machine" && grep -qx 'idle no' "$t/out/machine" || fail "no machine record: $(ls "$t/out"; cat "$t/out/machine")"
grep -q '^WARNING: the machine was not idle before the run: 80.0% of its CPUs busy' "$t/err" || fail "no warning from series-ab.sh: $(cat "$t/err")"
echo "# series-ab.sh: $(grep -c . "$t/out/machine") lines in SP_OUT/machine, and the warning on stderr"
