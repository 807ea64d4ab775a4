# vm_run: scripts/vm.sh stopped cleanly on a signal; for every script that boots a guest.
# shellcheck shell=bash

# vm_run [-t] OUT VM.SH-ARGS...: run scripts/vm.sh with its stdout written to
# OUT (-t: and copied to ours, as tee does) and return its exit status.
# SIGINT, SIGTERM or SIGHUP to this shell stop the guest first: vm.sh gets
# SIGTERM (a background job ignores SIGINT) and stops QEMU, then the
# caller's own trap for the signal runs, or the shell dies of it. A plain
# `vm.sh ... | tee OUT` could not do that: a shell defers its traps while a
# foreground job runs, so a SIGTERM to the calling script alone (not its
# process group) killed the script and left vm.sh, vng and QEMU running.
vm_run() {
	local copy=0 out pid tpid fifo rc=0 sig
	if [ "$1" = -t ]; then
		copy=1
		shift
	fi
	out=$1
	shift
	# OUT first: a reader that cannot open it would leave the FIFO
	# without one, and vm.sh blocked opening it for ever.
	: >"$out" || return 1
	fifo=$(mktemp -u "${TMPDIR:-/tmp}/sp-vm-out.XXXXXX")
	mkfifo "$fifo" || return 1
	VM_RUN_TRAPS=$(trap -p INT TERM HUP)
	VM_RUN_VM='' VM_RUN_READER=''
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064 # the FIFO's name is fixed now
		trap "vm_run_stop $sig '$fifo'" "$sig"
	done
	if [ "$copy" = 1 ]; then
		tee "$out" <"$fifo" &
	else
		cat <"$fifo" >"$out" &
	fi
	tpid=$!
	VM_RUN_READER=$tpid
	"${VM_SH:-$TOP/scripts/vm.sh}" "$@" >"$fifo" &
	pid=$!
	VM_RUN_VM=$pid
	wait "$pid" || rc=$?
	wait "$tpid" || true
	rm -f "$fifo"
	vm_run_restore
	return "$rc"
}
vm_run_restore() {
	trap - INT TERM HUP
	eval "$VM_RUN_TRAPS"
}
vm_run_stop() { # SIGNAL FIFO
	local fd
	trap '' INT TERM HUP
	# vm.sh (it stops the guest); then the reader ends at the FIFO's end of
	# file with all of the output. Opening the FIFO read-write does not
	# block, and lets a reader whose writer never started see its end.
	if [ -n "$VM_RUN_VM" ]; then
		kill -TERM "$VM_RUN_VM" 2>/dev/null || true
		wait "$VM_RUN_VM" 2>/dev/null || true
	fi
	if [ -n "$VM_RUN_READER" ]; then
		exec {fd}<>"$2" && exec {fd}>&-
		wait "$VM_RUN_READER" 2>/dev/null || true
	fi
	rm -f "$2"
	vm_run_restore
	kill -s "$1" "$BASHPID"
	# Still here: the caller's trap did not exit, or the signal is ignored.
	exit $((128 + $(kill -l "$1")))
}
