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
# the whole line would stop at the first flag).
SCHED_FEATURES=/sys/kernel/debug/sched/features
save_features() {
	[ -r "$SCHED_FEATURES" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
	saved_features=$(cat "$SCHED_FEATURES" 2>/dev/null || true)
}
restore_features() {
	local f
	for f in $saved_features; do echo "$f" >"$SCHED_FEATURES" 2>/dev/null || true; done
}
