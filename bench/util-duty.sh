#!/usr/bin/env bash
# util-duty.sh OUT: what PELT's util_avg and util_est make of a task of known
# duty cycle, alone and with k busy CPUs beside it (build/bin/sp-util-duty,
# bench/util-duty.c). Meant for a guest under QEMU TCG, where one vCPU
# executes at a time: a task's vCPU waiting its turn still counts as
# running, and its timers fire late (docs/results/2026-12-07-util-duty-zen3,
# which found that, not the k + 1 stretch of a run phase it set out to see);
# runs as well on a host, where k changes nothing.
#
# The probe is pinned to PROBE, by default the lowest online CPU outside
# CPU 0's core (CPU 2 on zen3; CPU 0 keeps this script, its shell and the
# guest's I/O). First it calibrates, alone: ITERS iterations of its loop
# take SLEEP_US / 3. Then for each k in UTIL_DUTY_K it starts k spinners
# (bash's `while :; do :; done`, each pinned by taskset to one CPU: the
# lowest online CPUs outside CPU 0's core and PROBE's core, so never the
# probe's SMT sibling) and runs the probe for SECS seconds (after a warm-up)
# in each mode:
#   work  the same ITERS every period, then SLEEP_US of sleep: fixed work;
#   spin  a spin of SLEEP_US / 3 on the clock, then the same sleep: fixed time.
# The spinners are stopped after each k.
#
# Writes OUT/util-duty.raw (the calibration, then per run "k=K spinners=CPUS"
# and the probe's key=value line) and OUT/util-duty.txt (the head and the
# table, also printed), a row per run:
#   k, mode, duty (run over run + sleep, from the probe's own clock, i.e.
#   guest time), sched_duty (run time over elapsed, /proc/self/schedstat),
#   util_avg and util_est (/proc/self/sched), est/cap = util_est over the
#   probe CPU's capacity, avg/cap/duty and est/cap/duty (1.00: util_avg or
#   util_est is the duty cycle that guest time gives the task), and
#   est/cap/duty0: util_est over the capacity and that mode's duty cycle at
#   k=0 (how many times its duty cycle alone util_est reads).
# util_est is an EWMA that jumps up to util_avg at a dequeue and comes down
# a quarter of the way per dequeue, and only when the task did not wait
# runnable (util_est_update() in kernel/sched/fair.c); a task that waited
# keeps it high. So util_est can sit above util_avg: both are shown.
# Capacity: /sys/devices/system/cpu/cpuN/cpu_capacity where the kernel has
# it, else 1024 (SCHED_CAPACITY_SCALE, what every CPU has without asymmetric
# capacities); the head says which.
#
# Environment (defaults): UTIL_DUTY_K ("0 1 3 7 15"), UTIL_DUTY_SECS (3),
# UTIL_DUTY_WARMUP (0.5 s, not counted), UTIL_DUTY_SLEEP_US (3000),
# UTIL_DUTY_CPU (PROBE), UTIL_DUTY_SPIN_CPUS (a CPU list, in place of the
# spinners' CPUs above), UTIL_DUTY_SPIN_NICE (0; 19 on a shared host).
# SP_SYSFS, SP_UTIL_DUTY and SP_SPINNER stand for /sys, the probe and the
# spinner (a command given the CPU, which busies it until killed); the host
# test, tests/harness/util-duty.sh, gives it fakes.
set -euo pipefail
[ $# = 1 ] || { echo "usage: util-duty.sh OUT (a writable directory)" >&2; exit 2; }
out=$1
here=$(cd "$(dirname "$0")" && pwd)
probe=${SP_UTIL_DUTY:-$here/../build/bin/sp-util-duty}
sys=${SP_SYSFS:-/sys}/devices/system/cpu
ks=${UTIL_DUTY_K:-0 1 3 7 15}
secs=${UTIL_DUTY_SECS:-3}
warm=${UTIL_DUTY_WARMUP:-0.5}
sleep_us=${UTIL_DUTY_SLEEP_US:-3000}
nice=${UTIL_DUTY_SPIN_NICE:-0}
# spinner CPU, always run with &: exec, so that $! is the spinner itself
# and killing it leaves nothing behind.
spinner() { exec taskset -c "$1" nice -n "$nice" bash -c 'while :; do :; done'; }
[ -z "${SP_SPINNER:-}" ] || spinner() { exec "$SP_SPINNER" "$1"; }
die() { echo "error: util-duty.sh: $*" >&2; exit 1; }
if ! [ -d "$out" ] || ! [ -w "$out" ]; then
	die "OUT=$out is not a writable directory (the guest needs one shared with the host: -w OUT)"
fi
[ -x "$probe" ] || die "$probe missing; run 'make tools'"
for k in $ks; do
	[[ $k =~ ^[0-9]+$ ]] || die "UTIL_DUTY_K: '$k' is not a count of spinners (e.g. UTIL_DUTY_K='0 1 3')"
done
[[ $sleep_us =~ ^[1-9][0-9]*$ ]] || die "UTIL_DUTY_SLEEP_US=$sleep_us: give microseconds, e.g. 3000"
[[ $nice =~ ^-?[0-9]+$ ]] || die "UTIL_DUTY_SPIN_NICE=$nice: give a nice value, -20 to 19"

# first N: the first N lines, reading all of them (head would close the
# pipe early, and the writer's SIGPIPE fail the pipeline under pipefail).
first() { awk -v n="$1" 'NR <= n'; }
# csv: lines as one comma list.
csv() { paste -sd, -; }
# list: a CPU list (0-3,8) as one CPU a line.
list() { tr , '\n' | awk -F- 'NF { for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'; }
online() {
	if [ -f "$sys/online" ]; then list <"$sys/online"; else
		for d in "$sys"/cpu[0-9]*; do echo "${d##*cpu}"; done | sort -n
	fi
}
core() { list <"$sys/cpu$1/topology/thread_siblings_list"; }
[ -f "$sys/cpu0/topology/thread_siblings_list" ] || die "no $sys/cpu0/topology: is sysfs mounted?"
core0=$(core 0)
if [ -n "${UTIL_DUTY_CPU:-}" ]; then
	cpu=$UTIL_DUTY_CPU
else
	cpu=$(online | grep -vxF "$core0" | first 1)
	[ -n "$cpu" ] || die "no online CPU outside CPU 0's core for the probe; give UTIL_DUTY_CPU"
fi
online | grep -qx "$cpu" || die "UTIL_DUTY_CPU=$cpu is not an online CPU ($(paste -sd, <(online)))"
sibs=$(core "$cpu")
if [ -n "${UTIL_DUTY_SPIN_CPUS:-}" ]; then
	spin_cpus=$(list <<<"$UTIL_DUTY_SPIN_CPUS")
	for c in $spin_cpus; do
		online | grep -qx "$c" || die "UTIL_DUTY_SPIN_CPUS: CPU $c is not online"
		[ "$c" != "$cpu" ] || die "UTIL_DUTY_SPIN_CPUS names the probe's CPU $cpu"
	done
else
	spin_cpus=$(online | grep -vxF -e "$core0" -e "$sibs")
fi
nspin=$(echo "$spin_cpus" | grep -c . || true)
for k in $ks; do
	((k <= nspin)) || die "k=$k spinners, but only $nspin CPUs for them ($(csv <<<"$spin_cpus")); lower UTIL_DUTY_K"
done
if [ -f "$sys/cpu$cpu/cpu_capacity" ]; then
	cap=$(cat "$sys/cpu$cpu/cpu_capacity") capsrc="$sys/cpu$cpu/cpu_capacity"
else
	cap=1024 capsrc="no cpu_capacity in sysfs: SCHED_CAPACITY_SCALE"
fi
inv=$(dmesg 2>/dev/null | grep -i 'invarian' | tail -n 1 || true)

raw=$out/util-duty.raw
: >"$raw"
pids=()
stop_spinners() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null || true; done
	for p in ${pids[@]+"${pids[@]}"}; do wait "$p" 2>/dev/null || true; done
	pids=()
}
trap stop_spinners EXIT
trap 'stop_spinners; exit 130' INT TERM

cal=$("$probe" -C -c "$cpu" -S "$sleep_us") || die "the probe's calibration failed: $cal"
echo "$cal" >>"$raw"
iters=$(sed -n 's/.* iters=\([0-9]*\).*/\1/p' <<<"$cal")
[ -n "$iters" ] || die "no iters= in the calibration: $cal"
echo "util-duty: calibrated alone: $cal" >&2

for k in $ks; do
	used=$(echo "$spin_cpus" | first "$k" | csv)
	for c in $(echo "$spin_cpus" | first "$k"); do
		spinner "$c" &
		pids+=($!)
	done
	# Let every spinner reach its CPU before the probe starts.
	[ "$k" = 0 ] || sleep 0.2
	for mode in work spin; do
		if [ "$mode" = work ]; then
			arg=(-W "$iters")
		else
			arg=(-R $((sleep_us / 3)))
		fi
		line=$("$probe" -m "$mode" -c "$cpu" -S "$sleep_us" -d "$secs" -w "$warm" "${arg[@]}") ||
			die "the probe failed at k=$k, mode $mode: $line"
		echo "k=$k spinners=${used:--} $line" >>"$raw"
		echo "util-duty: k=$k $mode: $line" >&2
	done
	for p in ${pids[@]+"${pids[@]}"}; do
		kill -0 "$p" 2>/dev/null || die "a spinner of k=$k died before the probe ended"
	done
	stop_spinners
done

{
	echo "util-duty: probe on CPU $cpu (its core: $(csv <<<"$sibs")); CPU 0's core ($(csv <<<"$core0")) left to the script"
	echo "spinner CPUs, in the order used: $(csv <<<"$spin_cpus"); nice $nice"
	echo "capacity $cap ($capsrc); kernel $(uname -r)"
	echo "frequency invariance (dmesg): ${inv:-no line}"
	echo "sleep ${sleep_us} us; work: $iters iterations (calibrated alone to $((sleep_us / 3)) us); spin: $((sleep_us / 3)) us; ${secs} s a run after ${warm} s of warm-up"
	awk -v cap="$cap" '
		function val(key,   i, kv) {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) return kv[2] }
			return "NA"
		}
		function r(a, b) { return (a == "NA" || b == "NA" || b == 0) ? "NA" : sprintf("%.2f", a / b) }
		$1 ~ /^k=/ {
			n++; k[n] = substr($1, 3); m[n] = val("mode"); d[n] = val("duty"); sd[n] = val("sched_duty")
			ua[n] = val("util_avg"); ue[n] = val("util_est")
			if (k[n] == 0) d0[m[n]] = d[n]
		}
		END {
			printf "%3s %-5s %7s %10s %9s %9s %8s %13s %13s %14s\n", "k", "mode", "duty", "sched_duty",
				"util_avg", "util_est", "est/cap", "avg/cap/duty", "est/cap/duty", "est/cap/duty0"
			for (i = 1; i <= n; i++) {
				f = ue[i] == "NA" ? "NA" : ue[i] / cap
				g = ua[i] == "NA" ? "NA" : ua[i] / cap
				printf "%3d %-5s %7s %10s %9s %9s %8s %13s %13s %14s\n", k[i], m[i], d[i], sd[i], ua[i], ue[i],
					f == "NA" ? "NA" : sprintf("%.3f", f), r(g, d[i]), r(f, d[i]),
					(m[i] in d0) ? r(f, d0[m[i]]) : "NA"
			}
		}' "$raw"
} | tee "$out/util-duty.txt"
