#!/usr/bin/env bash
# check: quick, budget 30 s
# scripts/lib/report.sh's report_head, the one writer of a report's head,
# on a made-up build/linux (a base commit and the series' top) and results
# directory: the guest's head (make, make bench) names the kernel on its
# base, the topology read in the guest, the clock, the ledger and the runs
# a side with AB_REPS; base-vs-series' head (kernels) names both kernels,
# the preset without a guest's topology, the runs a boot and the boots a
# kernel with the defaults it is given, and what the boots do to p.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib/report.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
BUILD=$t/build RESULTS=$t/res
mkdir -p "$BUILD/linux" "$RESULTS/vm"
g() { git -C "$BUILD/linux" -c user.name=t -c user.email=t@t "$@"; }
g init -q && g commit -q --allow-empty -m "Linux base" && g update-ref refs/sp/base HEAD &&
	g commit -q --allow-empty -m "sched/fair: top" || fail "git could not make the tree"
top=$(g log -1 --format=%h)
printf 'cpus 64\nnode0 0-31\nllc 0-15\nsmt 0,32\ndomains SMT MC PKG NUMA\n' >"$RESULTS/vm/topology"
echo "icount shift=0: guest time = instructions" >"$RESULTS/vm/clock"
: >"$RESULTS/vm/ledger.conf"
k=$TOP/build/kbuild-vm/arch/x86/boot/bzImage

PRESET=zen3 REPS=7 AB_WARMUP=1
h=$(report_head vm "$k" zen3)
for want in "Kernel:   build/kbuild-vm/arch/x86/boot/bzImage (build/linux at $top sched/fair: top, on Linux base)" \
	"Topology: preset zen3 (PRESET, default zen3), as checked inside the guest:" "  CPUs     64" \
	"Clock:    icount shift=0: guest time = instructions (ICOUNT, default $AB_ICOUNT_DEFAULT)" \
	"Runs:     7 a side, interleaved, after 1 warm-up pair (REPS, default $AB_REPS)"; do
	grep -qxF -- "$want" <<<"$h" || fail "report_head vm lacks '$want': $h"
done
grep -q '^Ledger:   on' <<<"$h" || fail "report_head vm: no Ledger line with vm/ledger.conf: $h"

PRESET=2s8llc REPS=3 BOOTS=4 AB_WARMUP=2
h=$(report_head kernels "$k" 2s4llc 2 5)
for want in "Kernels:  A = series, build/kbuild-vm/arch/x86/boot/bzImage (build/linux at $top sched/fair: top)," \
	"          B = base, Linux base; every feature at its default" \
	"Topology: preset 2s8llc (PRESET, default 2s4llc)" \
	"Runs:     3 a boot after 2 warm-up runs (REPS, default 5), in 4 boots a kernel, alternating (BOOTS, default 2)" \
	"          p counts every run as independent, but each kernel ran in 4 boot(s): what differs"; do
	grep -qxF -- "$want" <<<"$h" || fail "report_head kernels lacks '$want': $h"
done
grep -qE '^(Clock|Ledger|  CPUs)' <<<"$h" && fail "report_head kernels shows a guest's topology, clock or ledger it did not keep: $h"
grep -qx 'Emulated topology under QEMU TCG: compare A with B only; times, latencies and rates are the' <<<"$h" ||
	fail "report_head kernels does not say the numbers are the emulator's: $h"
echo "# vm and kernels heads: $(grep -c . <<<"$h") lines of base-vs-series' head, e.g. $(sed -n 1p <<<"$h")"
