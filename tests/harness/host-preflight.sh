#!/usr/bin/env bash
# check: quick, budget 60 s
# host_preflight's debugfs and perf, through make bench's and make's checks
# (bench.sh --check, main.sh --check) with HOST=1: a debugfs that is not
# mounted is mounted (mount -t debugfs none DIR) and the run goes on; one
# mounted for a run that is then refused (a stock kernel) is unmounted
# again; a mount that fails names CONFIG_DEBUG_FS and the debugfs= and
# lockdown causes; a locked-down kernel (features file there but not
# readable, lockdown [integrity]) is named as such; a perf that is missing
# or does not run on this kernel is refused naming the family's package
# (os-release a fake). No message names CONFIG_SCHED_DEBUG, which Linux 7.3
# does not have. mount, umount and perf are stand-ins (SP_MOUNT, SP_UMOUNT,
# PATH) that record their calls; each refusal leaves no results directory.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
[ -n "$t" ] && [ -d "$t" ] || fail "no temporary directory"
cleanup_on_exit 'rm -rf "$t"'
mkdir "$t/bin"
features="GENTLE_FAIR_SLEEPERS NO_HRTICK $(series_switches -d | xargs) SIS_UTIL"
stock="GENTLE_FAIR_SLEEPERS NO_HRTICK SIS_UTIL"
# mount: records, then "mounts" a debugfs whose features are $MOUNT_FEATURES,
# or fails as on a kernel without debugfs when MOUNT_FAILS is set.
cat >"$t/bin/mount" <<SH
#!/bin/sh
echo "mount \$*" >>"$t/calls"
[ -z "\$MOUNT_FAILS" ] || { echo "mount: \$4: unknown filesystem type 'debugfs'." >&2; exit 32; }
mkdir -p "\$4/sched" && echo "\$MOUNT_FEATURES" >"\$4/sched/features"
SH
cat >"$t/bin/umount" <<SH
#!/bin/sh
echo "umount \$*" >>"$t/calls"
rm -rf "\$1/sched"
SH
# perf: fails as a perf wrapper without a perf for this kernel does.
cat >"$t/bin/perf" <<SH
#!/bin/sh
echo "perf \$*" >>"$t/calls"
[ -z "\$PERF_FAILS" ] || { echo "WARNING: perf not found for kernel 7.3" >&2; exit 2; }
SH
chmod +x "$t/bin/mount" "$t/bin/umount" "$t/bin/perf"
export HOST=1 PATH="$t/bin:$PATH" SP_MOUNT=$t/bin/mount SP_UMOUNT=$t/bin/umount SP_EUID=0 SP_RESULTS=$t/results
check() { env SP_DEBUGFS="$t/dbg" SETS=pipe "$@" "$TOP/scripts/bench.sh" --check; }
calls() { cat "$t/calls" 2>/dev/null; rm -f "$t/calls"; }
none() { # CASE: no results directory
	[ -z "$(ls -A "$t/results" 2>/dev/null)" ] || fail "$1 left $(ls "$t/results")"
}
no_sched_debug() { # CMD...: its refusal does not name CONFIG_SCHED_DEBUG
	! "$@" 2>&1 | grep SCHED_DEBUG || fail "$* names CONFIG_SCHED_DEBUG"
}

# Not mounted: mounted, and the check passes.
mkdir "$t/dbg"
out=$(check MOUNT_FEATURES="$features" 2>&1) || fail "an unmounted debugfs: exit $?: $out"
c="$(calls)"
[ "$c" = "mount -t debugfs none $t/dbg"$'\n'"perf version" ] || fail "an unmounted debugfs: want one mount and perf version: $c"
echo "$out" | grep -q "mounted debugfs at $t/dbg" || fail "the mount is not told: $out"
[ "$(cat "$t/dbg/sched/features")" = "$features" ] || fail "the mounted features changed"
echo "# $out"
# Already mounted: no second mount. make's check too.
out=$(env SP_DEBUGFS="$t/dbg" FEATURE=SIS_SMALL_LLC "$TOP/scripts/main.sh" --check 2>&1) || fail "make's check: $out"
[ "$(calls)" = "perf version" ] || fail "a mounted debugfs was mounted again"
none "a pass"

# Mounted for a stock kernel's run, refused: unmounted again.
rm -rf "$t/dbg/sched"
MOUNT_FEATURES=$stock expect_error 1 "lacks the series' switches: .*SIS_SMALL_LLC" -- check
[ "$(calls)" = "mount -t debugfs none $t/dbg"$'\n'"umount $t/dbg" ] || fail "a refused run left debugfs mounted"
none "a stock kernel"
# A kernel without debugfs: the mount fails, and the message names the fix.
MOUNT_FAILS=1 expect_error 1 "no readable $t/dbg/sched/features \(mount -t debugfs none $t/dbg: mount: $t/dbg: unknown filesystem type 'debugfs'.\): HOST=1 needs debugfs, so a kernel with CONFIG_DEBUG_FS=y, without debugfs=off or debugfs=no-mount on its command line, and not locked down" -- check
[ "$(calls)" = "mount -t debugfs none $t/dbg" ] || fail "a failed mount: want one mount"
MOUNT_FAILS=1 no_sched_debug check
calls >/dev/null
none "no debugfs"
# Locked down: debugfs is there, its features file cannot be opened (here
# it is a directory), and lockdown says integrity.
mkdir -p "$t/dbg/sched/features"
echo 'none [integrity] confidentiality' >"$t/lockdown"
expect_error 1 "the running kernel is locked down \(integrity\), which refuses debugfs's writable files such as $t/dbg/sched/features: boot it without lockdown" -- check SP_LOCKDOWN="$t/lockdown"
[ -z "$(calls)" ] || fail "a locked-down kernel: a mount was tried"
none "lockdown"
rmdir "$t/dbg/sched/features"

# A perf that does not run on this kernel (as a distribution's wrapper
# does on a kernel of one's own): refused, naming the family's package.
echo "$features" >"$t/dbg/sched/features"
echo 'ID=fedora' >"$t/os-release"
PERF_FAILS=1 SP_OS_RELEASE=$t/os-release expect_error 1 "perf not found, or it does not run on this kernel \(.*\): install it \(dnf install perf\), or build the booted kernel's own: make -C tools/perf" -- check
echo 'ID=debian' >"$t/os-release"
PERF_FAILS=1 SP_OS_RELEASE=$t/os-release expect_error 1 "install it \(apt-get install linux-perf\)" -- check
calls >/dev/null
none "perf"
[ "$(cat "$t/dbg/sched/features")" = "$features" ] || fail "the features file changed"
