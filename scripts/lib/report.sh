# The head of the report.txt of make and make bench (scripts/bench.sh) and
# of make base-vs-series (scripts/base-vs-series.sh), written here and
# nowhere else: report_head before the runs, report_machine
# after them. Sourced after lib.sh and results.sh.
# shellcheck shell=bash

# report_head host | vm KERNEL PRESET_DEFAULT | kernels KERNEL PRESET_DEFAULT
# BOOTS_DEFAULT REPS_DEFAULT: the head on stdout, ending with a blank line:
# the kernel, the topology ($RESULTS/host/topology of host_topology, or the
# guest's, $RESULTS/vm/topology), for a guest what the emulator's numbers
# mean, its clock and the cache ledger, then the runs a side and the
# warm-up with their defaults (REPS, AB_WARMUP, AB_REPS). kernels is
# base-vs-series.sh's head: the series' KERNEL (A) against the base (B),
# every feature at its default, in BOOTS alternating boots a kernel of
# REPS runs each, and what that does to p.
report_head() {
	local base
	if [ "$1" = host ]; then
		echo "Kernel:   the running kernel, $(uname -r), of $(uname -n)"
		echo "Topology: as sysfs and debugfs show it:"
		topology_summary "$RESULTS/host/topology"
	else
		base=$(git -C "$BUILD/linux" log -1 --format=%s refs/sp/base 2>/dev/null || true)
		if [ "$1" = kernels ]; then
			echo "Kernels:  A = series, ${2#"$TOP"/} (build/linux at $(git -C "$BUILD/linux" log -1 --format='%h %s')),"
			echo "          B = base${base:+, $base}; every feature at its default"
			echo "Topology: preset $PRESET (PRESET, default $3)"
		else
			echo "Kernel:   ${2#"$TOP"/} (build/linux at $(git -C "$BUILD/linux" log -1 --format='%h %s')${base:+, on $base})"
			echo "Topology: preset $PRESET (PRESET, default $3), as checked inside the guest:"
			[ ! -f "$RESULTS/vm/topology" ] || topology_summary "$RESULTS/vm/topology"
		fi
		echo "Emulated topology under QEMU TCG: compare A with B only; times, latencies and rates are the"
		echo "emulator's, not the hardware's. Placement counts (migrations, wait_us, shares) mean what they say."
		[ "$1" = kernels ] || [ ! -f "$RESULTS/vm/clock" ] || echo "Clock:    $(cat "$RESULTS/vm/clock") (ICOUNT, default $AB_ICOUNT_DEFAULT)"
		[ "$1" = kernels ] || [ ! -f "$RESULTS/vm/ledger.conf" ] || {
			echo "Ledger:   on (LEDGER=1): l2_miss ... stall_ms are the cache ledger's account of each run's accesses"
			echo "          on a model (ledger/README.md; sizes and latencies: vm/ledger.conf), not a measurement:"
			echo "          a modelled miss does not slow the guest."
		}
	fi
	if [ "$1" = kernels ]; then
		echo "Runs:     $REPS a boot after $AB_WARMUP warm-up run$([ "$AB_WARMUP" = 1 ] || echo s) (REPS, default $5), in $BOOTS boots a kernel, alternating (BOOTS, default $4)"
		echo "          p counts every run as independent, but each kernel ran in $BOOTS boot(s): what differs"
		echo "          from boot to boot is not in it, so read p as indicative unless BOOTS is large."
	else
		echo "Runs:     $REPS a side, interleaved, after $AB_WARMUP warm-up pair$([ "$AB_WARMUP" = 1 ] || echo s) (REPS, default $AB_REPS)"
	fi
	echo
}

# report_machine: the machine as the runs found it ($RESULTS/sets/machine,
# bench/machine.sh's record, in bench/lib.sh's machine_summary, which the
# guest's series-ab.sh also warns with), then a blank line; nothing without
# the record.
report_machine() {
	[ ! -s "$RESULTS/sets/machine" ] || { machine_summary "$RESULTS/sets/machine"; echo; }
}

# topology_summary FILE: a topology file (bench/topology.sh) in a few lines.
topology_summary() {
	awk '/^cpus/{print "  CPUs     " $2}
		/^node/{print "  " $1 "    " $2}
		/^llc/{l = l " " $2} /^smt/{ s++ }
		/^domains/{$1 = ""; d = "  domains " $0}
		END { print d; print "  LLCs    " l; print "  SMT sets " s }' "$1"
}
