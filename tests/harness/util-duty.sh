#!/usr/bin/env bash
# check: quick, budget 30 s
# bench/util-duty.c (build/bin/sp-util-duty) and bench/util-duty.sh, the
# duty cycle against PELT probe, on the host and without a busy CPU:
# the probe refuses bad input and, in a short run of each mode, prints a
# line whose figures obey what cannot be otherwise (a spin lasts at least
# its time, a sleep at least its time, so duty <= run / (run + sleep)), with
# util_avg and util_est read where this kernel has /proc/self/sched. The
# script, on a fake 64-CPU sysfs (zen3's shape) with a stand-in probe and
# stand-in spinners: the probe on CPU 2, spinners from CPU 4 up, alive while
# the probe runs and gone after, even when the probe fails; the calibrated
# iterations passed to every work run; the table's ratios (est/cap/duty and
# against k=0) with capacity 1024 and with a cpu_capacity of 512; bad input
# refused with the fix named.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
P=$BUILD/bin/sp-util-duty
S=$TOP/bench/util-duty.sh
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"

# The probe itself.
expect_error 1 "usage: sp-util-duty" -- "$P" -m nosuch
expect_error 1 "usage: sp-util-duty" -- "$P" -m work extra
expect_error 1 "-W is the work mode's" -- "$P" -m spin -W 10
expect_error 1 "-R is the spin mode's" -- "$P" -m work -R 10
expect_error 1 "cannot pin to CPU 100000 .*give an online CPU" -- "$P" -m spin -c 100000
has_util=0
grep -q '^se\.avg\.util_est ' /proc/self/sched 2>/dev/null && has_util=1
for m in spin work; do
	a=(-R 1000)
	[ $m = spin ] || a=(-W 20000)
	out=$("$P" -m $m -c 0 -S 3000 -d 0.3 -w 0.1 "${a[@]}" 2>"$t/err") || fail "a 0.3 s $m run failed: $out $(cat "$t/err")"
	echo "# $out"
	awk -v m=$m -v has=$has_util '
		{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END {
			if ($1 != "util-duty" || v["mode"] != m || v["periods"] + 0 < 1) exit 1
			if (v["sleep_us_meas"] + 0 < 3000) exit 1
			if (m == "spin" && (v["run_set_us"] + 0 != 1000 || v["run_us"] + 0 < 1000)) exit 1
			if (m == "work" && v["iters"] + 0 != 20000) exit 1
			if (v["duty"] + 0 <= 0 || v["duty"] + 0 > v["run_us"] / (v["run_us"] + 3000) + 0.0001) exit 1
			if (has && (v["util_avg"] == "NA" || v["util_est"] == "NA" || v["samples"] + 0 < 2)) exit 1
			if (!has && v["util_est"] != "NA") exit 1
		}' <<<"$out" || fail "the $m run's line breaks a bound (spin >= 1000 us, sleep >= 3000 us, duty <= run/(run+sleep), util read iff /proc/self/sched has it): $out"
done
[ $has_util = 1 ] || grep -q "util_avg and util_est are NA" "$t/err" || fail "no note that util is NA: $(cat "$t/err")"

# The script on a fake zen3 sysfs: SMT pairs (0,1), (2,3), ...
for c in $(seq 0 63); do
	mkdir -p "$t/sys/devices/system/cpu/cpu$c/topology"
	echo "$((c / 2 * 2))-$((c / 2 * 2 + 1))" >"$t/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"
done
echo 0-63 >"$t/sys/devices/system/cpu/online"
# The stand-in spinner records its CPU and PID and sleeps until killed.
cat >"$t/spinner" <<EOF
#!/bin/sh
echo "\$1 \$\$" >>"$t/spinners"
exec sleep 60
EOF
# The stand-in probe logs its arguments and the spinners alive, and prints
# the next of the canned lines; "fail" makes it fail.
cat >"$t/probe" <<EOF
#!/bin/bash
n=\$(( \$(cat "$t/n" 2>/dev/null || echo 0) + 1 ))
echo \$n >"$t/n"
alive=0
while read -r c p; do kill -0 \$p 2>/dev/null && alive=\$((alive + 1)); done <"$t/spinners"
echo "\$* alive=\$alive" >>"$t/calls"
l=\$(sed -n "\${n}p" "$t/lines")
[ "\$l" != fail ] || exit 1
echo "\$l"
EOF
chmod +x "$t/spinner" "$t/probe"
cat >"$t/lines.ok" <<'EOF'
util-duty-calibration cpu=2 sleep_set_us=3000 target_run_us=1000 iters=5000 took_s=0.10
util-duty mode=work cpu=2 iters=5000 duty=0.2500 sched_duty=0.2510 util_avg=250.0 util_est=256.0
util-duty mode=spin cpu=2 run_set_us=1000 duty=0.2400 sched_duty=0.2410 util_avg=240.0 util_est=246.0
util-duty mode=work cpu=2 iters=5000 duty=0.5714 sched_duty=0.5720 util_avg=580.0 util_est=585.0
util-duty mode=spin cpu=2 run_set_us=1000 duty=0.2500 sched_duty=NA util_avg=NA util_est=NA
EOF
run() {
	rm -f "$t/n" "$t/calls" "$t/spinners"
	: >"$t/spinners"
	rm -rf "$t/out" && mkdir "$t/out"
	env SP_SYSFS="$t/sys" SP_UTIL_DUTY="$t/probe" SP_SPINNER="$t/spinner" UTIL_DUTY_K="0 3" "$@" "$S" "$t/out" 2>"$t/err"
}
none_alive() {
	local c p
	while read -r c p; do
		! kill -0 "$p" 2>/dev/null || { kill "$p"; fail "spinner $p (CPU $c) left running $1"; }
	done <"$t/spinners"
}
cp "$t/lines.ok" "$t/lines"
run >"$t/table" || fail "util-duty.sh on a fake zen3 failed: $(cat "$t/err")"
none_alive "after the run"
[ "$(cut -d" " -f1 "$t/spinners" | sort -n | paste -sd,)" = 4,5,6 ] || fail "k=3's spinners, want CPUs 4,5,6: $(cat "$t/spinners")"
cat >"$t/want.calls" <<'EOF'
-C -c 2 -S 3000 alive=0
-m work -c 2 -S 3000 -d 3 -w 0.5 -W 5000 alive=0
-m spin -c 2 -S 3000 -d 3 -w 0.5 -R 1000 alive=0
-m work -c 2 -S 3000 -d 3 -w 0.5 -W 5000 alive=3
-m spin -c 2 -S 3000 -d 3 -w 0.5 -R 1000 alive=3
EOF
diff "$t/want.calls" "$t/calls" >"$t/d" || fail "the probe's calls (and the spinners alive in each): $(cat "$t/d")"
cat >"$t/want.table" <<'EOF'
  k mode     duty sched_duty  util_avg  util_est  est/cap  avg/cap/duty  est/cap/duty  est/cap/duty0
  0 work   0.2500     0.2510     250.0     256.0    0.250          0.98          1.00           1.00
  0 spin   0.2400     0.2410     240.0     246.0    0.240          0.98          1.00           1.00
  3 work   0.5714     0.5720     580.0     585.0    0.571          0.99          1.00           2.29
  3 spin   0.2500         NA        NA        NA       NA            NA            NA             NA
EOF
tail -n 5 "$t/table" | diff "$t/want.table" - >"$t/d" || fail "the table: $(cat "$t/d")"
grep -qx 'util-duty: probe on CPU 2 (its core: 2,3); CPU 0.s core (0,1) left to the script' "$t/table" &&
	grep -q '^capacity 1024 (no cpu_capacity' "$t/table" || fail "the head: $(cat "$t/table")"
grep -q '^k=3 spinners=4,5,6 util-duty mode=work' "$t/out/util-duty.raw" && cmp -s "$t/table" "$t/out/util-duty.txt" ||
	fail "util-duty.raw or util-duty.txt: $(cat "$t/out/util-duty.raw")"
echo "# fake zen3: probe on CPU 2, k=3 on CPUs 4,5,6; k=3 work: est/cap/duty 1.00, 2.29 times its duty alone"

echo 512 >"$t/sys/devices/system/cpu/cpu2/cpu_capacity"
run >"$t/table" || fail "util-duty.sh with a capacity of 512 failed: $(cat "$t/err")"
grep -q '^capacity 512 (' "$t/table" && grep -qE '^  3 work .* 1\.143 +1\.98 +2\.00 +4\.57$' "$t/table" ||
	fail "with cpu_capacity 512, want est/cap 1.143, 1.98, 2.00 and 4.57 for k=3 work: $(cat "$t/table")"
rm "$t/sys/devices/system/cpu/cpu2/cpu_capacity"

# Failures: the spinners still stopped; bad input named with its fix.
sed '4s/.*/fail/' "$t/lines.ok" >"$t/lines"
rc=0
run >/dev/null || rc=$?
[ $rc = 1 ] && grep -q "the probe failed at k=3, mode work" "$t/err" || fail "a failing probe, want exit 1 and a message: $rc $(cat "$t/err")"
none_alive "after the probe failed"
cp "$t/lines.ok" "$t/lines"
run UTIL_DUTY_K="0 61" && fail "61 spinners on 60 CPUs accepted"
grep -q "k=61 spinners, but only 60 CPUs for them .*lower UTIL_DUTY_K" "$t/err" || fail "k=61: $(cat "$t/err")"
run UTIL_DUTY_K="0 x" && fail "UTIL_DUTY_K='0 x' accepted"
grep -q "UTIL_DUTY_K: 'x' is not a count" "$t/err" || fail "k=x: $(cat "$t/err")"
run SP_UTIL_DUTY="$t/none" && fail "a missing probe accepted"
grep -q "$t/none missing; run 'make tools'" "$t/err" || fail "no probe: $(cat "$t/err")"
run UTIL_DUTY_CPU=64 && fail "probe CPU 64 accepted"
grep -q "UTIL_DUTY_CPU=64 is not an online CPU" "$t/err" || fail "CPU 64: $(cat "$t/err")"
run UTIL_DUTY_SPIN_CPUS=2 && fail "a spinner on the probe's CPU accepted"
grep -q "names the probe's CPU 2" "$t/err" || fail "spinner on CPU 2: $(cat "$t/err")"
expect_error 1 "is not a writable directory" -- env SP_UTIL_DUTY="$t/probe" "$S" "$t/nodir"
expect_error 2 "usage: util-duty.sh OUT" -- "$S"
