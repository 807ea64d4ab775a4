#!/usr/bin/env bash
# host_mark / host_others_pct (scripts/lib.sh), the idle-host check of the
# vm-alone stage: CPU time of the caller's own children does not count as
# "other", CPU time of a process outside its tree does.
. "$(dirname "$0")/../lib.sh"
spin() { timeout "$1" sh -c 'while :; do :; done'; }

m0=$(host_mark) t0=$SECONDS
spin 3
own=$(host_others_pct "$m0" "$(host_mark)" $((SECONDS - t0)))
echo "# a 3 s busy loop of our own: others $own%"
awk -v p="$own" 'BEGIN { exit !(p < 15) }' || fail "our own child counted as other: $own%"

# An orphan (its parent exits at once) is outside our tree: on N CPUs,
# 3 s of one CPU in a 3 s window is 100/N percent.
m0=$(host_mark) t0=$SECONDS
(spin 3 &)
sleep 3.5
other=$(host_others_pct "$m0" "$(host_mark)" $((SECONDS - t0)))
want=$(awk -v n="$(getconf _NPROCESSORS_ONLN)" 'BEGIN { printf "%.0f", 100 / n * 0.6 }')
echo "# a 3 s busy loop outside our tree: others $other% (at least $want% expected)"
awk -v p="$other" -v w="$want" 'BEGIN { exit !(p >= w) }' || fail "an outside busy loop was not counted: $other%"
