#!/bin/bash
# Runs inside the guest (host root over 9p). $1 is the run directory the host
# shares read-write: it holds 'expected' (the topology the preset promises) and
# 'cmd' (the command). We write 'topology', 'stdout', 'stderr', 'rc', 'dmesg'.
d=$1
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# vm.sh -c: booted with maxcpus=, the rest of the CPUs come online here,
# each in turn, as CPU hotplug would bring them.
if [ -f "$d/online" ]; then
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "$(cat "$f")" = 1 ] || echo 1 >"$f" ||
			echo "guest-run: cannot bring ${f%/online} online" >&2
	done
fi
"$(dirname "$0")/../bench/topology.sh" >"$d/topology"

if ! cmp -s "$d/expected" "$d/topology"; then
	{
		echo "guest topology does not match the preset (expected vs actual):"
		diff "$d/expected" "$d/topology"
	} >"$d/stderr"
	: >"$d/stdout"
	echo 97 >"$d/rc"
else
	# virtme-ng points /dev/stdout and /dev/stderr at its own console
	# ports; a command that opens them (the kselftest runner writes its
	# tests' output to /dev/stdout) would lose that output. Point them at
	# the command's own descriptors, as on any system, and open the files
	# for appending: a second open of the same file gets its own offset,
	# and without O_APPEND the two would write over each other's lines.
	ln -sfn /proc/self/fd/1 /dev/stdout
	ln -sfn /proc/self/fd/2 /dev/stderr
	: >"$d/stdout"
	: >"$d/stderr"
	bash "$d/cmd" >>"$d/stdout" 2>>"$d/stderr" </dev/null
	echo $? >"$d/rc"
fi
dmesg >"$d/dmesg"
