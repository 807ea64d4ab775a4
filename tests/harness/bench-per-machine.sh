#!/usr/bin/env bash
# check: quick, budget 60 s
# A set's count sized to the machine (bench/sets: MULTxllc, MULTxcpu,
# MULTxnode in place of N): bench/series-ab.sh resolves it from sysfs, here
# two fake trees, a 64-CPU emulated zen3 (4 LLCs, 2 nodes) and a 2x96-core
# machine with SMT (384 CPUs, 24 LLCs, 2 nodes), so that both-g1xllc is
# 4 groups on one and 24 on the other; it refuses bad forms (an unknown
# unit, a multiple of 0, stream-N's passes, an LLC count where sysfs shows
# no L3, -D, which reads no machine) before anything runs, each naming the
# fix, and -N (make bench's check before it boots) lets them through; the
# output of -D for absolute names is as it was. One set runs end to end
# (hackbench a stand-in, the kernel's files fakes): SET.meta, the report's
# section and results.json record the count, its rule and the topology.
. "$(dirname "$0")/../lib.sh"
B=$TOP/bench/series-ab.sh
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"
# tree DIR CPUS CPUS_PER_LLC CPUS_PER_NODE: a sysfs of CPUs numbered in
# order, each LLC and node a contiguous range.
tree() {
	local c l n
	echo "0-$(($2 - 1))" >"$t/online"
	mkdir -p "$1/devices/system/cpu"
	cp "$t/online" "$1/devices/system/cpu/online"
	for ((c = 0; c < $2; c++)); do
		l=$((c / $3 * $3))
		mkdir -p "$1/devices/system/cpu/cpu$c/cache/index3"
		echo "$l-$((l + $3 - 1))" >"$1/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list"
	done
	for ((n = 0; n < $2 / $4; n++)); do
		mkdir -p "$1/devices/system/node/node$n"
		echo "$((n * $4))-$((n * $4 + $4 - 1))" >"$1/devices/system/node/node$n/cpulist"
	done
}
tree "$t/zen3" 64 16 32
tree "$t/big" 384 16 192
# work SYSFS SET: the workload SET resolves to.
work() { SP_SYSFS=$1 "$B" -d "$2" | awk -F' [|] ' '{ print $NF }'; }
hb="-f 10 -s 100 -l 500 --threads --pipe"
for c in "zen3 both-g1xllc hackbench -g 4 $hb" "big both-g1xllc hackbench -g 24 $hb" \
	"zen3 tbench-0.5xcpu $TOP/bench/tbench.sh 10 32" "big tbench-0.5xcpu $TOP/bench/tbench.sh 10 192" \
	"big fit-g2xnode hackbench -g 4 $hb" "zen3 both-g0.1xllc hackbench -g 1 $hb"; do
	read -r tr set want <<<"$c"
	got=$(work "$t/$tr" "$set") || fail "$set on $tr: refused"
	[ "$got" = "$want" ] || fail "$set on $tr: '$got', want '$want'"
	echo "# $set on $tr: $got"
done
# The title says the count it came to.
SP_SYSFS=$t/big "$B" -d lat-g1xllc | grep -qF '| both wakeup switches, cyclictest next to hackbench 24 groups |' ||
	fail "lat-g1xllc: $(SP_SYSFS=$t/big "$B" -d lat-g1xllc)"

# Bad forms, refused before anything runs, each naming the fix.
export SP_SYSFS=$t/zen3
expect_error 2 "set 'both-g2xfoo': foo is no unit of a count; per machine, N is MULTxllc, MULTxcpu or MULTxnode \(both-g2xllc\)" -- "$B" -n 2 pipe both-g2xfoo
expect_error 2 "set 'both-g0xllc': 0 per llc is no load; want a multiple above 0 \(both-g1xllc\)" -- "$B" -n 2 both-g0xllc
expect_error 2 "set 'both-g2.xllc': both-gN wants a positive number N, or a multiple of the machine's LLCs, CPUs or nodes: both-g2xllc" -- "$B" -n 2 both-g2.xllc
expect_error 2 "set 'stream-2xnode': stream-N counts STREAM's passes, not load: want a whole number" -- "$B" -n 2 stream-2xnode
mkdir -p "$t/nol3/devices/system/cpu/cpu0"
SP_SYSFS=$t/nol3 expect_error 1 "set 'both-g2xllc' counts per llc, and $t/nol3 shows no LLCs .*: name an absolute count \(both-gN\) or a count per CPU \(both-g2xcpu\)" -- "$B" -n 2 pipe both-g2xllc
SP_SYSFS=$t/nol3 work "$t/nol3" tbench-1xcpu | grep -q 'tbench.sh 10 1$' || fail "tbench-1xcpu on a sysfs without L3"
expect_error 2 "set 'both-g2xllc' is sized to the machine it runs on \(2xllc\), which -D does not read: name an absolute count \(both-gN\)" -- "$B" -D both-g4 both-g2xllc
out=$("$B" -N both-g2xllc tbench-64) || fail "-N refused a set sized to the machine: $out"
echo "$out" | grep -qF 'hackbench -g 2xllc' || fail "-N: $out"
expect_error 2 "set 'both-g2xfoo': foo is no unit" -- "$B" -N both-g2xfoo
# -D of absolute names, which make jobs reads, is as it was.
out=$("$B" -D both-g4 tbench-64 fit-llc stream-10)
printf '%s\n' "both-g4 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_* | both wakeup switches, hackbench 4 groups | hackbench -g 4 $hb" \
	"tbench-64 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_*,tbench_mbps | both wakeup switches, tbench 64 clients | $TOP/bench/tbench.sh 10 64" \
	"fit-llc | UTIL_FITS_CAPACITY | - | cpus_utilised,~wake_*,~turbo_* | UTIL_FITS_CAPACITY alone, hackbench in one LLC | taskset -c LLC0 hackbench -g 1 -f LLC0_CPUS -l 3000 --threads --pipe" \
	"stream-10 | NUMA_IMB_PINNED | - | cpus_utilised,~wake_*,~turbo_*,triad_mbps,triad_avg_mbps | NUMA_IMB_PINNED, STREAM triad 10 passes, pinned to CPUs MASK | taskset -c MASK $TOP/bench/../build/bin/sp-stream -n 10" >"$t/want"
diff "$t/want" <(echo "$out") >&2 || fail "-D of absolute names changed"

# End to end: the count in SET.meta, the report and results.json.
mkdir -p "$t/bin" "$t/dbg/sched" "$t/procsys/kernel" "$t/out"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV" >"$t/dbg/sched/features"
echo 0 >"$t/procsys/kernel/sched_schedstats"
printf '#!/bin/sh\necho "$*" >>"%s/hb.args"\necho "Time: 0.0$$"\n' "$t" >"$t/bin/hackbench"
chmod +x "$t/bin/hackbench"
PATH=$t/bin:$PATH SP_SYSFS=$t/big SP_DEBUGFS=$t/dbg SP_PROCSYS=$t/procsys SP_WHERE=0 SP_OUT=$t/out SP_REPORT=0 \
	"$B" -n 2 both-g1xllc 2>"$t/err" || fail "series-ab.sh both-g1xllc failed: $(cat "$t/err")"
grep -q "^-g 24 $hb$" "$t/hb.args" || fail "hackbench ran with $(sort -u "$t/hb.args")"
for kv in count=24 per=1xllc "per_from=1 x 24 LLCs" cpus=384 llcs=24 nodes=2 "workload=hackbench -g 24 $hb"; do
	grep -qxF "$kv" "$t/out/both-g1xllc.meta" || fail "both-g1xllc.meta lacks $kv: $(cat "$t/out/both-g1xllc.meta")"
done
out=$("$TOP/bench/report.sh" "$t/out" both-g1xllc) || fail "report.sh failed: $out"
echo "$out" | grep -qxF "   count: 24, 1xllc = 1 x 24 LLCs of this machine (384 CPUs, 24 LLCs, 2 nodes)" || fail "no count in the report: $out"
python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert rows and all(r["count"] == 24 and r["count_per"] == "1xllc" and r["topology"] == {"cpus": 384, "llcs": 24, "nodes": 2} for r in rows), rows[0]
' "$t/out/results.json" || fail "results.json: $(head -c 600 "$t/out/results.json")"
echo "# both-g1xllc on 384 CPUs: $(echo "$out" | grep '^   count:')"
