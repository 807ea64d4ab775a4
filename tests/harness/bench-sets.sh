#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/series-ab.sh checks every set it is given before the first one runs
# (and before it touches the features file): an unknown set, a set named
# twice, a count that is not a positive number, stream-N below 2 passes or
# on a machine that cannot pin it (here: a fake sysfs of one node), a *-llc
# set where sysfs shows no L3, and no sp-stream (but with -c, the check
# before make builds it). Each is refused with a message that names it, so
# that a bench never fails in the guest after its earlier sets ran for an hour.
. "$(dirname "$0")/../lib.sh"
B=$TOP/bench/series-ab.sh
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"
expect_error 2 "unknown set 'nosuch'" -- "$B" -n 2 pipe nosuch
expect_error 2 "set 'both-g4' named twice" -- "$B" -n 2 both-g4 pipe both-g4
expect_error 2 "set 'both-g4x': both-gN wants a positive number N" -- "$B" -n 2 both-g4x
expect_error 2 "set 'tbench-0': tbench-N wants a positive number" -- "$B" -n 2 tbench-0
expect_error 2 "set 'both-proc-sock-g2x': both-proc-sock-gN wants" -- "$B" -n 2 both-proc-sock-g2x
expect_error 2 "set 'stream-1': STREAM times from its second pass, so N >= 2" -- "$B" -n 2 stream-1
expect_error 2 "set 'stream-1': STREAM times from its second pass, so N >= 2" -- "$B" -D stream-1
# A template's name is not a set: its N is no count.
expect_error 2 "set 'both-gN': both-gN wants a positive number N" -- "$B" -D both-gN
mkdir -p "$t/sys/devices/system/node/node0" "$t/sys/devices/system/cpu/cpu0/cache/index3"
echo 0 >"$t/sys/devices/system/node/node0/cpulist"
echo 0 >"$t/sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list"
SP_SYSFS=$t/sys expect_error 1 "stream-N needs 2 or more LLCs per node" -- "$B" -n 2 pipe stream-10
SP_STREAM=$t/none expect_error 1 "$t/none missing; run 'make tools'" -- "$B" -n 2 stream-10
# The *-llc sets read CPU 0's LLC from sysfs, and only they do: on a host
# whose sysfs shows no L3 they are refused, and the other sets are not.
mkdir -p "$t/nol3/devices/system/cpu/cpu0"
SP_SYSFS=$t/nol3 expect_error 1 "set 'fit-llc' needs the LLC of CPU 0, and $t/nol3/devices/system/cpu/cpu0/cache/index3/shared_cpu_list is missing" -- "$B" -n 2 pipe fit-llc
SP_SYSFS=$t/nol3 expect_error 2 "unknown set 'nosuch'" -- "$B" -n 2 pipe nosuch
# bench/sets is the one definition: every set in it resolves (a count of 2
# for the "N" ones), with a fake sysfs of 2 nodes of 2 LLCs for those that
# read it, and each expands to what the changelogs ran.
sys=$t/sys2
for c in 0 1 2 3; do
	mkdir -p "$sys/devices/system/cpu/cpu$c/cache/index3"
	echo "$c" >"$sys/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list"
done
mkdir -p "$sys/devices/system/node/node0" "$sys/devices/system/node/node1"
echo 0-1 >"$sys/devices/system/node/node0/cpulist"
echo 2-3 >"$sys/devices/system/node/node1/cpulist"
mapfile -t all < <(grep -v '^[#@]' "$TOP/bench/sets" | grep . | cut -d'|' -f1 | tr -d ' \t' | sed 's/N$/2/')
out=$(SP_SYSFS=$sys "$B" -d "${all[@]}") || fail "series-ab.sh -d of every set failed: $out"
[ "$(echo "$out" | wc -l)" = "${#all[@]}" ] || fail "${#all[@]} sets, $(echo "$out" | wc -l) resolved: $out"
# -c checks the same but the tools make builds after it (make bench HOST=1).
SP_SYSFS=$sys SP_STREAM=$t/none SP_SCHBENCH=$t/none "$B" -c stream-2 schbench-2 >/dev/null ||
	fail "series-ab.sh -c wants sp-stream or sp-schbench"
want() { # SET LINE
	echo "$out" | grep -qxF -- "$2" || fail "set $1 resolved to $(echo "$out" | grep "^$1 ")"
}
want both-g2 "both-g2 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_* | both wakeup switches, hackbench 2 groups | hackbench -g 2 -f 10 -s 100 -l 500 --threads --pipe"
want limit-g2 "limit-g2 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | SIS_LIMIT_STACKING | cpus_utilised,~wake_*,~turbo_* | both wakeup switches narrowed by SIS_LIMIT_STACKING, hackbench 2 groups | hackbench -g 2 -f 10 -s 100 -l 500 --threads --pipe"
want pair-llc "pair-llc | SELECT_BIAS_PREV | UTIL_FITS_CAPACITY | cpus_utilised,~wake_*,~turbo_* | SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY, hackbench in one LLC | taskset -c 0 hackbench -g 1 -f $(taskset -c 0 nproc) -l 3000 --threads --pipe"
want tbench-2 "tbench-2 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_*,tbench_mbps | both wakeup switches, tbench 2 clients | $TOP/bench/tbench.sh 10 2"
want stream-2 "stream-2 | NUMA_IMB_PINNED | - | cpus_utilised,~wake_*,~turbo_*,triad_mbps,triad_avg_mbps | NUMA_IMB_PINNED, STREAM triad 2 passes, pinned to CPUs 0,2 | taskset -c 0,2 $TOP/bench/../build/bin/sp-stream -n 2"
# The calibration's sets (docs/results/2026-12-07-calibration-zen3): a
# worker count of one message thread, and STREAM under the wakeup switches.
want schbench-w2 "schbench-w2 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_*,rps,~wake_local_pct | both wakeup switches, sp-schbench: one message thread with 2 workers | $TOP/bench/../build/bin/sp-schbench -m 1 -t 2 -r 10"
want both-stream-2 "both-stream-2 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_*,triad_mbps,triad_avg_mbps | both wakeup switches, STREAM triad 2 passes, pinned to CPUs 0,2 (threads that never sleep: a control) | taskset -c 0,2 $TOP/bench/../build/bin/sp-stream -n 2"
# schbench-N keeps its message threads: schbench-wN's longer prefix takes
# only names that begin schbench-w.
want schbench-2 "schbench-2 | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_*,rps,~wake_local_pct | both wakeup switches, sp-schbench: 2 message threads, each with as many workers as an LLC has CPUs | $TOP/bench/../build/bin/sp-schbench -m 2 -r 10"
want sync-g2 "sync-g2 | SIS_SYNC_SKIP_STACKING | UTIL_FITS_CAPACITY,SELECT_BIAS_PREV | cpus_utilised,~wake_*,~turbo_* | SIS_SYNC_SKIP_STACKING on top of both wakeup switches, hackbench 2 groups | hackbench -g 2 -f 10 -s 100 -l 500 --threads --pipe"
echo "# bench/sets: ${#all[@]} sets resolve; e.g. $(echo "$out" | grep '^stream-2 ')"
# A set whose "also" is a comma list turns each of its switches on for both
# sides, and off after: the sync sets run with both wakeup switches on,
# SIS_SYNC_SKIP_STACKING on in A and off in B (hackbench a stand-in that
# notes the features file, the kernel's files fakes).
mkdir -p "$t/bin" "$t/dbg/sched" "$t/procsys/kernel" "$t/out"
feats0="SIS_UTIL NO_UTIL_FITS_CAPACITY NO_SELECT_BIAS_PREV NO_SIS_SYNC_SKIP_STACKING"
echo "$feats0" >"$t/dbg/sched/features"
echo 0 >"$t/procsys/kernel/sched_schedstats"
printf '#!/bin/sh\ncat "%s/dbg/sched/features" >>"%s/feats"\necho "Time: 0.01"\n' "$t" "$t" >"$t/bin/hackbench"
chmod +x "$t/bin/hackbench"
PATH=$t/bin:$PATH SP_DEBUGFS=$t/dbg SP_PROCSYS=$t/procsys SP_WHERE=0 SP_OUT=$t/out SP_REPORT=0 \
	"$B" -n 2 sync-g2 2>"$t/err" || fail "series-ab.sh sync-g2 failed: $(cat "$t/err")"
[ "$(sort -u "$t/feats")" = "SIS_UTIL UTIL_FITS_CAPACITY SELECT_BIAS_PREV NO_SIS_SYNC_SKIP_STACKING
SIS_UTIL UTIL_FITS_CAPACITY SELECT_BIAS_PREV SIS_SYNC_SKIP_STACKING" ] ||
	fail "sync-g2 ran with these features: $(sort -u "$t/feats")"
[ "$(cat "$t/dbg/sched/features")" = "$feats0" ] || fail "sync-g2 left the features as $(cat "$t/dbg/sched/features")"
grep -qxF "also=UTIL_FITS_CAPACITY,SELECT_BIAS_PREV" "$t/out/sync-g2.meta" || fail "sync-g2.meta: $(cat "$t/out/sync-g2.meta")"
echo "# sync-g2: both wakeup switches on for both sides, SIS_SYNC_SKIP_STACKING on in A only"
# The sets run with no name are the @default line's.
[ "$("$B" -d | cut -d' ' -f1 | paste -sd' ')" = "$(sed -n 's/^@default //p' "$TOP/bench/sets")" ] ||
	fail "series-ab.sh -d without sets: $("$B" -d)"
# A set whose "needs" series-ab.sh does not know is refused by name.
sed 's/^boost \(.*\)| - \( *\)|\(.*RUNNABLE_BOOST, messaging\)/boost \1| gpu \2|\3/' "$TOP/bench/sets" >"$t/sets"
grep -q '| gpu' "$t/sets" || fail "could not make a bad sets file"
SP_SETS=$t/sets expect_error 2 "set 'boost' needs 'gpu'" -- "$B" -d boost
# make's A/B, set ab given inline (scripts/main.sh): its switches all on
# against all off, its workload split into words, neither globbed nor
# evaluated; beside a set of bench/sets. Without the inline set, ab is no set.
out=$(cd "$t" && touch glob && SP_INLINE_FEATURE=SIS_UTIL,SIS_SMALL_LLC SP_INLINE_WORKLOAD='perf bench  sched pipe $HOME *' "$B" -N ab pipe) ||
	fail "the inline set refused: $out"
[ "$out" = "ab | SIS_UTIL,SIS_SMALL_LLC | - | cpus_utilised,~wake_*,~turbo_* | SIS_UTIL,SIS_SMALL_LLC A/B | perf bench sched pipe \$HOME *
pipe | SELECT_BIAS_PREV | - | cpus_utilised,~wake_*,~turbo_* | SELECT_BIAS_PREV alone, 1:1 pipe | perf bench sched pipe -l 50000" ] ||
	fail "the inline set: $out"
SP_INLINE_FEATURE=SIS_UTIL SP_INLINE_WORKLOAD=' ' expect_error 2 "set 'ab' \(SP_INLINE_FEATURE=SIS_UTIL\) has no workload" -- "$B" -d ab
expect_error 2 "unknown set 'ab'" -- "$B" -d ab
