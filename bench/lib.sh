# Helpers shared by the bench scripts and the host-side glue; sourced, never
# run. The bench scripts run in the guest and on a host booted into the
# patched kernel, without the rest of the repository, so this file lives
# here and scripts/lib.sh sources it.
# shellcheck shell=bash

# cleanup_on_exit CMD: run CMD when the script exits, and also when SIGINT,
# SIGTERM or SIGHUP ends it: bash does not run an EXIT trap when it dies of
# a signal it does not trap (seen: make check killed by SIGTERM left its
# temporary directory). The signal is raised again after CMD, so that the
# caller sees it.
cleanup_on_exit() {
	local s
	# shellcheck disable=SC2064 # CMD is meant to expand now
	trap "$1" EXIT
	for s in INT TERM HUP; do
		# shellcheck disable=SC2064
		trap "$1; trap - EXIT $s; kill -s $s \$\$" "$s"
	done
}

# The sched features file, mounted if need be. save_features remembers what
# it holds; restore_features writes that back, one flag at a time (a write of
# the whole line would stop at the first flag). SP_DEBUGFS stands for
# /sys/kernel/debug: a fake tree of the tests, whose features file is a
# plain file.
SCHED_FEATURES=${SP_DEBUGFS:-/sys/kernel/debug}/sched/features
save_features() {
	[ -r "$SCHED_FEATURES" ] || [ -n "${SP_DEBUGFS:-}" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
	saved_features=$(cat "$SCHED_FEATURES" 2>/dev/null || true)
}
restore_features() {
	local f
	for f in $saved_features; do feature_write "$f" 2>/dev/null || true; done
}
# feature_known NAME: true if the features file lists NAME (on or off;
# NAME may carry its NO_).
feature_known() {
	tr ' ' '\n' <"$SCHED_FEATURES" | sed 's/^NO_//' | grep -qxF -- "${1#NO_}"
}
# features_preflight WHO HOW [FEATURE...]: the one check before a run that
# writes the sched features (ab-run.sh, run-ab.sh of make jobs' LKP and
# mmtests, HOST=1): this runs as root, debugfs shows the features file
# (mounted at /sys/kernel/debug if it is not: features_mounted=1), and the
# running kernel has every FEATURE (NO_ allowed). Else it says why and how
# to fix it on stderr, unmounts what it mounted, and returns 1. WHO names
# the runner in the message, HOW the command to run as root. SP_EUID
# stands for the effective user, SP_LOCKDOWN for
# /sys/kernel/security/lockdown; under SP_DEBUGFS (a fake tree) nothing is
# mounted unless SP_MOUNT and SP_UMOUNT name stand-ins for mount and umount
# (the tests).
features_mounted=
features_preflight() {
	local who=$1 how=$2 dbg=${SP_DEBUGFS:-/sys/kernel/debug} err='' lock
	shift 2
	[ "${SP_EUID:-$EUID}" = 0 ] || {
		echo "error: $who writes the running kernel's sched features: run it as root ($how)" >&2
		return 1
	}
	if [ ! -e "$SCHED_FEATURES" ] && ! mountpoint -q "$dbg" &&
		{ [ -z "${SP_DEBUGFS:-}" ] || [ -n "${SP_MOUNT:-}" ]; }; then
		if err=$("${SP_MOUNT:-mount}" -t debugfs none "$dbg" 2>&1); then
			features_mounted=1
			echo ">> mounted debugfs at $dbg" >&2
		fi
	fi
	if ! cat "$SCHED_FEATURES" >/dev/null 2>&1; then
		# Lockdown lets debugfs mount and show its files, but refuses
		# to open the writable ones, sched/features among them.
		lock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "${SP_LOCKDOWN:-/sys/kernel/security/lockdown}" 2>/dev/null || true)
		[ -z "$lock" ] || [ "$lock" = none ] || {
			features_refuse "the running kernel is locked down ($lock), which refuses debugfs's writable files such as $SCHED_FEATURES: boot it without lockdown (no lockdown= on its command line; Secure Boot turns it on in many distributions' configs)"
			return 1
		}
		features_refuse "no readable $SCHED_FEATURES${err:+ (mount -t debugfs none $dbg: $err)}: $who needs debugfs, so a kernel with CONFIG_DEBUG_FS=y, without debugfs=off or debugfs=no-mount on its command line, and not locked down"
		return 1
	fi
	features_exist "$@"
}
# features_exist FEATURE...: the running kernel has every FEATURE (NO_
# allowed), else features_refuse naming the first it lacks.
features_exist() {
	local f
	for f; do
		feature_known "$f" || {
			features_refuse "unknown sched feature '$f' (a switch of the series needs a kernel of the series: make deb builds one); this kernel ($(uname -r)) has: $(sed 's/NO_//g' "$SCHED_FEATURES")"
			return 1
		}
	done
}
# features_refuse MESSAGE: MESSAGE as an error on stderr, debugfs unmounted
# if features_preflight mounted it; returns 1.
features_refuse() {
	[ -z "$features_mounted" ] || "${SP_UMOUNT:-umount}" "${SP_DEBUGFS:-/sys/kernel/debug}" 2>/dev/null || true
	features_mounted=
	echo "error: $1" >&2
	return 1
}
# feature_write FLAG: one flag (NAME or NO_NAME) to the features file. Under
# SP_DEBUGFS the kernel's part is done here: FLAG takes the place of NAME or
# NO_NAME in the file, and an unknown NAME fails, as the kernel's write does.
feature_write() {
	local n=${1#NO_}
	if [ -z "${SP_DEBUGFS:-}" ]; then
		echo "$1" >"$SCHED_FEATURES"
		return
	fi
	feature_known "$n" || return 1
	awk -v n="$n" -v f="$1" '{ for (i = 1; i <= NF; i++) if ($i == n || $i == "NO_" n) $i = f; print }' \
		"$SCHED_FEATURES" >"$SCHED_FEATURES.tmp" && mv "$SCHED_FEATURES.tmp" "$SCHED_FEATURES"
}

# run_group CMD...: CMD in a process group of its own, waited for; returns
# its status. A terminal's Ctrl-C then reaches the caller alone, whose
# cleanup stops the whole group with stop_group: the tools that make jobs
# drives (lkp run, run-mmtests.sh) start monitors and workloads of their own,
# and run-mmtests.sh goes on after a SIGINT (its trap only kills the test
# it is running). setsid does not fork here: a background child of a
# non-interactive shell is never a group leader, so $! is the group. The
# caller's traps run while it waits (a shell defers them during a foreground
# command).
group_pid=
run_group() {
	local rc=0
	setsid "$@" &
	group_pid=$!
	wait "$group_pid" || rc=$?
	group_pid=
	return "$rc"
}
# stop_group [SECONDS]: SIGTERM to the group of a run_group still running;
# once CMD has ended, or after SECONDS (default 30), SIGKILL to whatever is
# left in the group (monitors CMD did not stop); then CMD is waited for.
stop_group() {
	local end=$((SECONDS + ${1:-30})) st
	[ -n "$group_pid" ] || return 0
	kill -TERM -- "-$group_pid" 2>/dev/null || true
	# CMD is a zombie once it has ended: it stays the group's until waited for.
	while st=$(sed 's/.*) //' "/proc/$group_pid/stat" 2>/dev/null) && [ "${st%% *}" != Z ] &&
		[ "$SECONDS" -lt "$end" ]; do
		sleep 0.2
	done
	kill -KILL -- "-$group_pid" 2>/dev/null || true
	wait "$group_pid" 2>/dev/null || true
	group_pid=
}
# features_show WORDS: true if the features file shows every word of WORDS.
features_show() {
	local w
	for w in $1; do
		tr ' ' '\n' <"$SCHED_FEATURES" | grep -qxF -- "$w" || return 1
	done
}

# One CPU in each of the first half of the LLCs of every node (rounded
# down), as the original report pinned STREAM (numactl -C 0,16,...,112: 4 of
# the 8 LLCs per node) and as the kselftest numa_imb_pinned does: the
# fork-time NUMA imbalance cap only matters when the task's allowed CPUs per
# node are fewer than imb_numa_nr, which is the number of LLCs per node when
# a node has two or more (adjust_numa_imbalance()). An LLC is named by its
# first CPU. Fails, naming what is missing, without 2 nodes with CPUs, an L3
# in sysfs or 2 LLCs per node. Nodes without CPUs are left out. SP_SYSFS
# stands for /sys (tests/harness/stream.sh gives it fake trees); used by
# series-ab.sh's stream-N sets.
stream_mask() {
	local d cpu list first half mask=() nodes=0 sys=${SP_SYSFS:-/sys}
	for d in "$sys"/devices/system/node/node[0-9]*; do
		local leaders=()
		list=$(cat "$d/cpulist")
		[ -n "$list" ] || continue
		nodes=$((nodes + 1))
		for cpu in $(cpus_of "$list"); do
			first=$(cat "$sys/devices/system/cpu/cpu$cpu/cache/index3/shared_cpu_list" 2>/dev/null) ||
				{ echo "error: CPU $cpu has no L3 in sysfs (cache/index3); stream-N pins by LLC" >&2; return 1; }
			[ "${first%%[-,]*}" != "$cpu" ] || leaders+=("$cpu")
		done
		[ ${#leaders[@]} -ge 2 ] || {
			echo "error: stream-N needs 2 or more LLCs per node (imb_numa_nr is then their count); ${d##*/} has ${#leaders[@]}" >&2
			return 1
		}
		half=$((${#leaders[@]} / 2))
		mask+=("${leaders[@]:0:$half}")
	done
	[ "$nodes" -ge 2 ] || { echo "error: stream-N needs 2 NUMA nodes with CPUs; this machine has $nodes" >&2; return 1; }
	local IFS=,
	echo "${mask[*]}"
}
# cpus_of LIST: a CPU list as sysfs writes it (0-3,8,10-11), one CPU a line.
cpus_of() {
	local r
	for r in ${1//,/ }; do
		seq "${r%-*}" "${r#*-}"
	done
}

# need_gnuplot: true if GNUPLOT (default gnuplot) runs here, else a message
# naming the fix. Checked before runs whose plots come at the end.
need_gnuplot() {
	command -v "${GNUPLOT:-gnuplot}" >/dev/null ||
		{ echo "error: gnuplot (${GNUPLOT:-gnuplot}) not found; run 'make deps' (installs gnuplot-nox)" >&2; return 1; }
}

# machine_summary FILE: bench/machine.sh's record in a few lines for the
# report, with a warning, numbers and all, when the machine was not idle
# before the run.
machine_summary() {
	awk '{ k = $1; $1 = ""; v[k] = substr($0, 2) }
		k ~ /^node[0-9]+$/ { nl = nl " " k " " v[k] }
		END {
			print "Machine:  command line: " v["cmdline"]
			print "  SMT      control " v["smt_control"] ", active " v["smt_active"]
			print "  NUMA     " v["nodes"] " nodes on " v["sockets"] " sockets" (v["nps"] != "-" ? " (NPS" v["nps"] ")" : "") ":" nl
			print "  Idle     before the run: " v["busy_pct"] "% of the CPUs busy over " v["sample_s"] " s; load average " v["loadavg"]
			if (v["idle"] == "no")
				print "WARNING: the machine was not idle before the run: " v["busy_pct"] "% of its CPUs busy over " v["sample_s"] " s (load average " v["loadavg"] "); other work skews both sides"
		}' "$1"
}

# Runs per side of an A/B when REPS does not say (make, make bench, make
# jobs): enough for the headline's migration cut to show at p < 0.05 under
# the emulator, whose run-to-run spread is 15-25%.
AB_REPS=12
# Warm-up pairs of every A/B of make and make bench (series-ab.sh): run,
# then dropped, before the REPS pairs that count, so that neither side's
# first run is the first of the boot or of the set.
AB_WARMUP=1
# The metrics of ab-run.sh's own where higher is better (bench/stats -H),
# and with ~ those neither better nor worse (the switches' decisions and
# the wakeups that stayed, wake_*; turbostat's frequency and C-state
# residency, turbo_*); the rest, wakelat_* among them, are lower-is-better.
# bench/sets adds those of each set's workload.
AB_HIGHER='cpus_utilised,~wake_*,~turbo_*'
# ab_meta FILE TITLE A B ALSO RUNS HIGHER WORKLOAD: what an A/B was, for
# bench/report.sh: its title, the two sides' labels, the switch on in both
# (or nothing), the runs per side, the higher-is-better metrics and the
# workload, a "key=value" line each.
ab_meta() {
	printf 'title=%s\na=%s\nb=%s\nalso=%s\nruns=%s\nhigher=%s\nworkload=%s\n' "${@:2}" >"$1"
}
