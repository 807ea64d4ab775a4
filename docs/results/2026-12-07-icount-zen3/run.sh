#!/usr/bin/env bash
# The icount comparison, one configuration after another on this host:
#   run.sh LABEL ICOUNT [noise]
# make's A/B (scripts/main.sh: zen3, both wakeup switches against neither,
# REPS=12), with the host's load sampled every 5 s by vmstat beside it;
# with "noise", a kernel build at -j2 (no ccache) loops beside the guest.
set -u
label=$1 icount=$2 noise=${3:-}
out=/work/icount/$label
mkdir -p "$out"
cd /work/icount-wt
vmstat -n 5 >"$out/host.vmstat" &
vm=$!
nz=
if [ "$noise" = noise ]; then
	(
		while :; do
			rm -rf /tmp/noise-build
			CCACHE_DISABLE=1 make -s -C /work/main/build/linux O=/tmp/noise-build tinyconfig >/dev/null 2>&1
			CCACHE_DISABLE=1 make -s -C /work/main/build/linux O=/tmp/noise-build -j2 vmlinux >/dev/null 2>&1
		done
	) &
	nz=$!
fi
start=$(date +%s)
# make.err's lines carry the host's time (s): the first line from the
# guest ("== ab: ...") ends the boot.
# As make does (scripts/main.sh), on the kernel built from main at 4f85a1c;
# with SETS=..., make bench's sets instead (TBENCH_SECS=5 as in the ladder).
if [ -n "${SETS:-}" ]; then
	bench=(env SETS="$SETS" TBENCH_SECS=5 SCHED_LAT=0)
else
	bench=(env SETS=ab SP_INLINE_FEATURE=UTIL_FITS_CAPACITY,SELECT_BIAS_PREV
		SP_INLINE_WORKLOAD='hackbench -g 8 -f 10 -s 100 -l 500 --threads --pipe' SCHED_LAT=0)
fi
"${bench[@]}" ICOUNT="$icount" REPS=12 SP_RESULTS="$out/results" BENCH_KERNEL=build/kbuild-vm/arch/x86/boot/bzImage \
	scripts/bench.sh >"$out/make.out" \
	2> >(while IFS= read -r l; do printf '%s %s\n' "$(date +%s)" "$l"; done >"$out/make.err")
rc=$?
end=$(date +%s)
[ -z "$nz" ] || { pkill -P "$nz"; kill "$nz"; pkill -f noise-build; }
kill "$vm"
echo "label=$label icount=$icount noise=${noise:-none} rc=$rc wall_s=$((end - start)) start=$start end=$end" | tee "$out/summary"
