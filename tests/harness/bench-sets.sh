#!/usr/bin/env bash
# check: quick, budget 60 s
# bench/series-ab.sh checks every set it is given before the first one runs
# (and before it touches the features file): an unknown set, a set named
# twice, a count that is not a positive number, stream-N below 2 passes or
# on a machine that cannot pin it (here: a fake sysfs of one node), a *-llc
# set where sysfs shows no L3, and no
# sp-stream. Each is refused with a message that names it, so that a bench
# never fails in the guest after its earlier sets ran for an hour.
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
