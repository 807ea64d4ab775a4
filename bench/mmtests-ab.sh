#!/usr/bin/env bash
# One A/B set under mmtests, from an mmtests checkout on a machine booted into
# the patched kernel, as root: make jobs writes it as out/jobs/mmtests/run-ab.sh
# beside the configs.
#
#   run-ab.sh CONFIG [MMTESTS_DIR]
#
# CONFIG is a config-SET of make jobs (SP_SET, SP_SIDE_A and SP_SIDE_B name
# the set and the features file words of its two sides). For side A, then B:
# the side's words are written to the features file and read back, then
# ./run-mmtests.sh --no-monitor --config CONFIG SET-SIDE runs, and the features
# file is kept in work/log/SET-SIDE/sched-features (after the run: mmtests
# empties that directory when it starts). The features file is restored
# whatever happens; then compare-kernels.sh --baseline SET-B --compare SET-A.
# lib.sh is bench/lib.sh, copied beside it (features file save, restore and
# write). SP_DEBUGFS stands for /sys/kernel/debug (the tests give a fake one).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: run-ab.sh CONFIG [MMTESTS_DIR]" >&2; exit 2; }
cfg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mm=${2:-.}
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
F=$SCHED_FEATURES
[ -r "$cfg" ] || { echo "error: no config at $1" >&2; exit 1; }
[ -x "$mm/run-mmtests.sh" ] || { echo "error: $mm is not an mmtests checkout (no run-mmtests.sh); give its path" >&2; exit 1; }
# shellcheck disable=SC1090
eval "$(. "$cfg" && printf 'set=%q a=%q b=%q\n' "${SP_SET:-}" "${SP_SIDE_A:-}" "${SP_SIDE_B:-}")"
[ -n "$set" ] && [ -n "$a" ] && [ -n "$b" ] ||
	{ echo "error: $1 has no SP_SET, SP_SIDE_A and SP_SIDE_B; use a config of make jobs" >&2; exit 1; }
[ -w "$F" ] || { echo "error: $F is not writable: run as root with debugfs mounted" >&2; exit 1; }
for w in $a $b; do
	feature_known "$w" ||
		{ echo "error: the running kernel has no sched feature ${w#NO_}: boot a kernel of the series" >&2; exit 1; }
done
save_features
# run-mmtests.sh runs in the background, waited for: a shell defers its
# traps while a foreground job runs, and a SIGTERM would leave the side's
# features written until mmtests ended. On a signal it is stopped first.
mmpid=
cleanup_on_exit '[ -z "$mmpid" ] || kill "$mmpid" 2>/dev/null; restore_features'
for side in A B; do
	words=$a
	[ "$side" = A ] || words=$b
	for w in $words; do
		feature_write "$w" || { echo "error: writing $w to $F failed" >&2; exit 1; }
	done
	for w in $words; do
		tr ' ' '\n' <"$F" | grep -qxF -- "$w" || { echo "error: $F does not show $w after writing it" >&2; exit 1; }
	done
	echo "run-ab: $set-$side with $words" >&2
	(cd "$mm" && exec ./run-mmtests.sh --no-monitor --config "$cfg" "$set-$side") &
	mmpid=$!
	wait "$mmpid" || { echo "error: run-mmtests.sh failed for $set-$side" >&2; exit 1; }
	mmpid=
	cp "$F" "$mm/work/log/$set-$side/sched-features"
done
restore_features
cd "$mm/work/log" && ../../compare-kernels.sh --baseline "$set-B" --compare "$set-A"
