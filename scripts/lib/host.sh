# Host mode (HOST=1 of make and make bench): the A/B on the running kernel,
# for a machine booted into the patched kernel (make deb). Used by main.sh
# and bench.sh.
# shellcheck shell=bash

# host_preflight: refuse, before anything is written, unless this runs as
# root, debugfs shows the sched features file, and the running kernel has
# every switch of the series. SP_EUID stands for the effective user (tests).
host_preflight() {
	local f missing=
	[ "${SP_EUID:-$EUID}" = 0 ] ||
		die "HOST=1 writes the running kernel's sched features: run it as root (sudo make ... HOST=1)"
	[ -r "$SCHED_FEATURES" ] ||
		die "no $SCHED_FEATURES: mount debugfs (mount -t debugfs none /sys/kernel/debug), on a kernel with CONFIG_SCHED_DEBUG"
	for f in $(series_switches); do
		feature_known "$f" || missing="$missing $f"
	done
	[ -z "$missing" ] ||
		die "the running kernel ($(uname -r)) lacks the series' switches:$missing; boot a kernel of the series first (make deb builds one)"
	command -v perf >/dev/null || die "perf not found; install linux-perf (make deps)"
}

# host_topology DIR: the machine's topology (bench/topology.sh) in
# DIR/topology, for the results record, and its summary on stdout.
host_topology() {
	mkdir -p "$1"
	"$TOP/bench/topology.sh" >"$1/topology"
	echo "Kernel:   the running kernel, $(uname -r), of $(uname -n)"
	echo "Topology: as sysfs and debugfs show it:"
	topology_summary "$1/topology"
}

# topology_summary FILE: a topology file (bench/topology.sh) in a few lines.
topology_summary() {
	awk '/^cpus/{print "  CPUs     " $2}
		/^node/{print "  " $1 "    " $2}
		/^llc/{l = l " " $2} /^smt/{ s++ }
		/^domains/{$1 = ""; d = "  domains " $0}
		END { print d; print "  LLCs    " l; print "  SMT sets " s }' "$1"
}
