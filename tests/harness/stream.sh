#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/stream.c (build/bin/sp-stream), the STREAM of make bench's stream-N
# sets, on the host: one thread per allowed CPU, its metrics in ab-run.sh's
# "sp-metric:" form with consistent values, bad usage refused; and
# stream_mask (bench/lib.sh), the original report's pinning, on fake sysfs
# trees of the zen3 and 2s8llc shapes and of a machine with one node.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
S=$TOP/build/bin/sp-stream
make -s -C "$TOP" build/bin/sp-stream >/dev/null || fail "cannot build $S"
get() { awk -v m="$1" '$1 == "sp-metric:" && $2 == m { print $3 }' "$t/out"; }

# Two CPUs this test may use (a cpuset may leave out CPU 0).
mapfile -t mine < <(cpus_of "$(taskset -pc $$ | sed 's/.*: //')")
taskset -c "${mine[0]}" "$S" -n 3 -m 4 >"$t/out" 2>&1 || fail "sp-stream failed: $(cat "$t/out")"
grep -qx 'sp-stream: threads 1, passes 3, arrays 3 x 4 MiB' "$t/out" || fail "one CPU, not one thread: $(cat "$t/out")"
for m in triad_mbps triad_avg_mbps stacked moved; do
	grep -qE "^sp-metric: $m [0-9.]+$" "$t/out" || fail "no $m in: $(cat "$t/out")"
done
best=$(get triad_mbps) avg=$(get triad_avg_mbps)
# The best pass is at least as fast as the mean one.
awk -v b="$best" -v a="$avg" 'BEGIN { exit !(b > 0 && a > 0 && a <= b) }' ||
	fail "best $best MB/s, mean $avg MB/s: want 0 < mean <= best"
[ "$(get stacked)" = 0 ] && [ "$(get moved)" = 0 ] || fail "one pinned thread counted as stacked or moved: $(cat "$t/out")"
echo "# one thread, 3 passes over 4 MiB arrays: best $best MB/s, mean $avg MB/s"
if [ ${#mine[@]} -ge 2 ]; then
	taskset -c "${mine[0]},${mine[1]}" "$S" -n 2 -m 4 >"$t/out" 2>&1 || fail "sp-stream on 2 CPUs failed: $(cat "$t/out")"
	grep -q '^sp-stream: threads 2,' "$t/out" || fail "two CPUs, not two threads: $(cat "$t/out")"
	s=$(get stacked)
	[ "$s" = 0 ] || [ "$s" = 1 ] || fail "2 threads, $s stacked"
fi
expect_error 1 usage -- "$S" -n 1
expect_error 1 usage -- "$S" -m 0
expect_error 1 usage -- "$S" -n 5x
expect_error 1 usage -- "$S" extra

# fake_sys DIR NODES LLCS_PER_NODE CPUS_PER_LLC: a sysfs tree with node
# cpulists and each CPU's L3 shared_cpu_list, CPUs numbered node by node.
fake_sys() {
	local d=$1 nodes=$2 llcs=$3 per=$4 n l c first
	for ((n = 0; n < nodes; n++)); do
		mkdir -p "$d/devices/system/node/node$n"
		echo "$((n * llcs * per))-$(((n + 1) * llcs * per - 1))" >"$d/devices/system/node/node$n/cpulist"
		for ((l = 0; l < llcs; l++)); do
			first=$(((n * llcs + l) * per))
			for ((c = first; c < first + per; c++)); do
				mkdir -p "$d/devices/system/cpu/cpu$c/cache/index3"
				echo "$first-$((first + per - 1))" >"$d/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list"
			done
		done
	done
}
fake_sys "$t/zen3" 2 2 16
fake_sys "$t/2s8llc" 2 4 4
fake_sys "$t/one" 1 4 4
fake_sys "$t/onellc" 2 1 8
# SMT siblings numbered apart, as on real EPYCs: node0 0-15,32-47, with
# the LLCs 0-7,32-39 and 8-15,40-47; and a memory-only node2.
s=$t/smt
for n in 0 1; do
	mkdir -p "$s/devices/system/node/node$n"
	echo "$((16 * n))-$((16 * n + 15)),$((16 * n + 32))-$((16 * n + 47))" >"$s/devices/system/node/node$n/cpulist"
	for l in 0 1; do
		f=$((16 * n + 8 * l))
		for c in $(seq "$f" $((f + 7)) ) $(seq $((f + 32)) $((f + 39))); do
			mkdir -p "$s/devices/system/cpu/cpu$c/cache/index3"
			echo "$f-$((f + 7)),$((f + 32))-$((f + 39))" >"$s/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list"
		done
	done
done
mkdir -p "$s/devices/system/node/node2"
echo >"$s/devices/system/node/node2/cpulist"
m=$(SP_SYSFS=$t/zen3 stream_mask) || fail "stream_mask failed on the zen3 shape"
[ "$m" = 0,32 ] || fail "zen3 shape: mask $m, want 0,32 (one CPU in 1 of the 2 LLCs per node)"
m=$(SP_SYSFS=$t/2s8llc stream_mask) || fail "stream_mask failed on the 2s8llc shape"
[ "$m" = 0,4,16,20 ] || fail "2s8llc shape: mask $m, want 0,4,16,20 (one CPU in 2 of the 4 LLCs per node)"
m=$(SP_SYSFS=$t/smt stream_mask) || fail "stream_mask failed on split SMT numbering"
[ "$m" = 0,16 ] || fail "split SMT numbering and a memory-only node: mask $m, want 0,16"
echo "# pinning: zen3 0,32; 2s8llc 0,4,16,20; split SMT numbering 0,16"
SP_SYSFS=$t/one expect_error 1 'stream-N needs 2 NUMA nodes with CPUs; this machine has 1' -- stream_mask
SP_SYSFS=$t/onellc expect_error 1 'stream-N needs 2 or more LLCs per node .*; node0 has 1' -- stream_mask
rm -r "$t/zen3/devices/system/cpu/cpu40/cache"
SP_SYSFS=$t/zen3 expect_error 1 'CPU 40 has no L3 in sysfs' -- stream_mask
