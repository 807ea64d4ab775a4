#!/usr/bin/env bash
# check: quick, budget 30 s
# The cache ledger's known answers on the host, no QEMU: ledger/known.sh,
# run against a fake 2s4llc sysfs with stand-in tools, opens a window per
# case around sp-ledger-known with the right mode and CPUs and writes the
# map; ledger/known-check.sh gives the committed 2s4llc record's check.raw
# back line for line (and its wrong-topology mutant's FAIL), passes window
# lines near the model's answers for the shared buffer and STREAM's triad
# (ledger/test-model.c proves those answers on the model itself), and fails
# each broken rule: a reader served from the wrong distance, stores that
# leave the reader's copies current, loads that take the writer's copy, an
# L3 that keeps nothing; windows without per-vCPU counts or missing from
# the ledger, and a writer that is not the pinned window's CPU, are errors.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
K=$TOP/ledger/known-check.sh
# N: the record of known.sh's 14 windows, given back line for line. R: the
# first record (8 windows, and a wrong-topology mutant), run before the
# plugin placed the second node's memory: its windows carry that bug's
# unmodelled counts, so the fixture lines below zero them (old()).
N=$TOP/docs/results/2026-12-07-ledger-known-nodes-2s4llc
R=$TOP/docs/results/2026-12-07-ledger-known-2s4llc
# The records keep their window lines xz'd (ledger.txt.xz).
old() { xz -dc "$R/${1:-}ledger.txt.xz" | sed -E 's/ unmodelled=[0-9]+/ unmodelled=0/'; }
unset TOL

# known.sh on 2s4llc's topology: 2 sockets x 2 LLCs x 2 cores x 2 threads.
for c in $(seq 0 15); do
	d=$t/sys/devices/system/cpu/cpu$c
	mkdir -p "$d/topology" "$d/cache/index3"
	echo $((c / 8)) >"$d/topology/physical_package_id"
	echo "$((c / 2 * 2))-$((c / 2 * 2 + 1))" >"$d/topology/thread_siblings_list"
	echo "$((c / 4 * 4))-$((c / 4 * 4 + 3))" >"$d/cache/index3/shared_cpu_list"
done
printf '#!/bin/sh\necho "mark $*" >>"%s"\n' "$t/log" >"$t/sp-mark"
printf '#!/bin/sh\necho "known $*" >>"%s"\n' "$t/log" >"$t/sp-ledger-known"
chmod +x "$t/sp-mark" "$t/sp-ledger-known"
mkdir "$t/out"
SP_SYSFS=$t/sys SP_MARK=$t/sp-mark SP_LEDGER_KNOWN=$t/sp-ledger-known "$TOP/ledger/known.sh" "$t/out" \
	2>"$t/err" || fail "known.sh on a fake 2s4llc failed: $(cat "$t/err")"
cat >"$t/want.map" <<'EOF'
0 warmup 0 0 256 20
1 pinned 0 0 256 20
2 smt 0 1 256 20
3 llc 0 2 256 20
4 node 0 4 256 20
5 remote 0 8 256 20
6 stream-l3 0 0 16384 4
7 stream-dram 0 0 65536 4
8 share-llc 0 2 256 20
9 share-node 0 4 256 20
10 share-remote 0 8 256 20
11 triad-l3 0 0 5461 4
12 triad-dram 0 0 43690 2
13 triad-far 8 8 43690 2
EOF
diff "$t/want.map" "$t/out/known.map" >"$t/d" || fail "known.sh's map, want the first 8 lines as in $R/known.map and then the share and triad cases: $(cat "$t/d")"
head -n 8 "$t/want.map" | diff - "$R/known.map" >"$t/d" || fail "this test's map no longer starts with the first record's: $(cat "$t/d")"
diff "$t/want.map" "$N/known.map" >"$t/d" || fail "this test's map is not the record's: $(cat "$t/d")"
grep -q '^known -m share -a 0 -b 8 -k 256 -n 20$' "$t/log" && grep -q '^known -m triad -a 0 -b 0 -k 43690 -n 2$' "$t/log" &&
	grep -q '^known -m triad -a 8 -b 8 -k 43690 -n 2$' "$t/log" &&
	grep -q '^known -m move -a 0 -b 2 -k 256 -n 20$' "$t/log" || fail "known.sh's calls of sp-ledger-known: $(cat "$t/log")"
[ "$(grep -c '^mark start' "$t/log")" = 14 ] && [ "$(grep -c '^mark end' "$t/log")" = 14 ] &&
	[ "$(sed -n '3,5p' "$t/log" | paste -sd' ')" = "mark end 0 mark start 1 known -m move -a 0 -b 0 -k 256 -n 20" ] ||
	fail "known.sh's windows, want start, the load, end for each of 14: $(cat "$t/log")"
echo "# known.sh on a fake 2s4llc: 14 windows, the record's 8 then share-llc/node/remote (reader CPU 2, 4, 8) and triad-l3/dram/far"

# The records: the same lines, the same verdicts.
xz -dc "$N/ledger.txt.xz" >"$t/nodes.txt" || fail "xz -dc $N/ledger.txt.xz failed"
"$K" "$t/nodes.txt" "$N/known.map" >"$t/rec" || fail "known-check.sh fails the record: $(cat "$t/rec")"
diff "$N/check.raw" "$t/rec" >"$t/d" || fail "known-check.sh no longer gives the record's check.raw: $(cat "$t/d")"
old >"$t/old.txt" || fail "xz -dc $R/ledger.txt.xz failed"
"$K" "$t/old.txt" "$R/known.map" >"$t/rec" || fail "known-check.sh fails the first record: $(cat "$t/rec")"
diff "$R/check.raw" "$t/rec" >"$t/d" || fail "known-check.sh no longer gives the first record's check.raw: $(cat "$t/d")"
rc=0
old mutant/ >"$t/old-mut.txt" || fail "xz -dc $R/mutant/ledger.txt.xz failed"
"$K" "$t/old-mut.txt" "$R/mutant/known.map" >"$t/mut" || rc=$?
[ "$rc" = 1 ] && diff -q "$R/mutant/check.raw" "$t/mut" >/dev/null ||
	fail "the first record's mutant (wrong topology), want exit 1 and its check.raw, got exit $rc: $(cat "$t/mut")"
echo "# the 2s4llc records' check.raw given back line for line, and the mutant's FAIL"

# Window lines for the new cases, appended to the record's eight, as the
# model answers (ledger/test-model.c: the reader rounds x (4096 + 1) in
# the distance's class, the writer nothing more than the pinned window's
# CPU 0; triad 3 x 87376 lines a pass from L3 after the first writes,
# 3 x 699040 a pass and for the first writes from local DRAM), each over
# the pinned window's counts of the same vCPU (CPU 0: l2_miss 20318; CPU 2:
# c2c_llc 1782, l2_miss 1994; CPU 4: c2c_node 1194, l2_miss 7903; CPU 8:
# none) and off by a few percent, as the kernel's traffic makes them.
# win LABEL K=V...: one window line (the check reads only the keys it needs).
win() { local l=$1; shift; echo "window=$((l + 1)) label=$l vcpus=16 llcs=4 $*"; }
good() {
	old
	win 8 cpu0.l2_miss=16337 cpu2.c2c_llc=84922 cpu2.l2_miss=85434
	win 9 cpu0.l2_miss=25318 cpu4.c2c_node=82234 cpu4.l2_miss=87743
	win 10 cpu0.l2_miss=21000 cpu8.c2c_node=0 cpu8.c2c_remote=82240 cpu8.l2_miss=82480
	win 11 l3=1058512 dram_local=266224 dram_remote=0
	win 12 dram_local=6165000 dram_remote=0
	win 13 dram_local=6201000 dram_remote=0 unmodelled=300 l1=9000000 l2=0 l2_miss=6201000
}
good >"$t/good.txt"
"$K" "$t/good.txt" "$t/want.map" >"$t/out.good" || fail "the model's answers fail known-check.sh: $(cat "$t/out.good")"
[ "$(grep -c ' ok$' "$t/out.good")" = 26 ] && ! grep -q FAIL "$t/out.good" ||
	fail "want 26 lines ok (11 old, 9 share, 6 triad): $(cat "$t/out.good")"
grep -q '^share-remote cpu8.c2c_remote    82240  want        81920 +-     16384  ok$' "$t/out.good" &&
	grep -q '^share-llc    cpu0.l2_miss       -3981  want            0 +-     16384  ok$' "$t/out.good" &&
	grep -q '^triad-l3     l3+dram_local    1324736  want      1310640 +-    262128  ok$' "$t/out.good" &&
	grep -q '^triad-l3     dram_local        266224  want <=    262128 +     52425  ok$' "$t/out.good" &&
	grep -q '^triad-dram   dram_local       6165000  want      6291360 +-   1258272  ok$' "$t/out.good" ||
	fail "known-check.sh's lines for the new cases: $(tail -n 13 "$t/out.good")"
echo "# the shared buffer and the triad at the model's answers: 26 lines ok"

# broken NAME PATTERN SED: the good lines edited by SED fail with PATTERN.
broken() {
	local rc=0
	good | sed -E "$3" >"$t/$1.txt"
	"$K" "$t/$1.txt" "$t/want.map" >"$t/out.$1" || rc=$?
	[ "$rc" = 1 ] || fail "$1: want exit 1, got $rc: $(cat "$t/out.$1")"
	grep -qE -- "$2" "$t/out.$1" || fail "$1: no line matching /$2/: $(cat "$t/out.$1")"
	echo "# $1: $(grep -E -- "$2" "$t/out.$1" | head -n 1 | tr -s ' ')"
}
broken wrong-distance '^share-remote cpu8.c2c_remote +0 .*FAIL$' \
	'/^window=11 /s/cpu8.c2c_node=0 cpu8.c2c_remote=82240/cpu8.c2c_node=82240 cpu8.c2c_remote=0/'
broken stale-copies '^share-node +cpu4.c2c_node +4097 .*FAIL$' \
	'/^window=10 /s/cpu4.c2c_node=[0-9]+ cpu4.l2_miss=[0-9]+/cpu4.c2c_node=5291 cpu4.l2_miss=12000/'
broken writer-robbed '^share-llc +cpu0.l2_miss +77824 .*FAIL$' \
	'/^window=9 /s/cpu0.l2_miss=[0-9]+/cpu0.l2_miss=98142/'
broken no-l3 '^triad-l3 +dram_local +1310640 .*FAIL$' \
	'/^window=12 /s/l3=[0-9]+ dram_local=[0-9]+/l3=10000 dram_local=1310640/'
broken remote-pages '^triad-dram +dram_remote +6165000 .*FAIL$' \
	'/^window=13 /s/dram_local=6165000 dram_remote=0/dram_local=0 dram_remote=6165000/'
broken second-node-unplaced '^error: window 13: 6201000 accesses unmodelled' \
	'/^window=14 /s/dram_local=6201000 dram_remote=0 unmodelled=300 l1=9000000 l2=0 l2_miss=6201000/dram_local=0 dram_remote=0 unmodelled=6201000 l1=9000000 l2=0 l2_miss=0/'
broken no-vcpus 'error: window 10 .share-remote. or the pinned window has no cpu8.c2c_remote' \
	'/^window=11 /s/ cpu[0-9]+\.[a-z0-9_]+=[0-9]+//g'
sed 's/^8 share-llc 0 2 /8 share-llc 1 2 /' "$t/want.map" >"$t/writer1.map"
expect_error 1 'error: share-llc: the writer is CPU 1, the pinned window ran on CPU 0' -- "$K" "$t/good.txt" "$t/writer1.map"
head -n 12 "$t/want.map" >"$t/short.map"
good | grep -v '^window=1[34] ' >"$t/short.txt"
{ cat "$t/short.map"; echo "12 triad-dram 0 0 43690 2"; } >"$t/long.map"
expect_error 1 'error: window 12 .triad-dram. is not in the ledger' -- "$K" "$t/short.txt" "$t/long.map"
expect_error 2 'usage: known-check.sh LEDGER.TXT KNOWN.MAP' -- "$K" "$t/short.txt"
