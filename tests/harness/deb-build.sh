#!/usr/bin/env bash
# check: full, budget 1800 s
# make deb as far as this machine allows: packages of the patched tree
# from the VM kernel's config (a small one; a distribution config builds
# for hours) into a scratch output, the image package unpacked into a
# scratch root with dpkg-deb -x: its kernel, its config with the options
# make deb adds (SCHEDSTATS, DEBUG_FS, PERF_EVENTS), and a System.map
# with the series' symbols (the sis_scan and sis_small_llc debugfs files),
# all named by the release the package is. Booting it is for hardware.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
"$TOP/scripts/mktree.sh" >/dev/null || fail "make tree failed"
cfg=$("$TOP/scripts/build-kernel.sh") && cfg=$BUILD/kbuild-vm/.config || fail "building the VM kernel failed"
# Objects of its own, beside build/kbuild-vm (so ccache hits), never the
# user's build/kbuild-deb.
DEB_CONFIG=$cfg DEB_OUT=$t/out DEB_OBJ=$BUILD/kbuild-deb-check "$TOP/scripts/deb.sh" >"$t/log" 2>&1 ||
	fail "make deb failed: $(tail -n 20 "$t/log")"
img=$(ls "$t"/out/linux-image-*.deb 2>/dev/null | grep -v -- '-dbg_' | head -n1)
[ -n "$img" ] || fail "no linux-image package in $(ls "$t/out")"
rel=$(dpkg-deb -f "$img" Package) rel=${rel#linux-image-}
[[ $rel == *-sched-placement ]] || fail "release '$rel' does not end in -sched-placement"
dpkg-deb -x "$img" "$t/root" || fail "dpkg-deb -x $img failed"
[ -s "$t/root/boot/vmlinuz-$rel" ] || fail "no /boot/vmlinuz-$rel in $(dpkg-deb -c "$img" | head)"
for o in SCHEDSTATS DEBUG_FS PERF_EVENTS; do
	grep -qx "CONFIG_$o=y" "$t/root/boot/config-$rel" || fail "/boot/config-$rel lacks CONFIG_$o=y"
done
for s in sched_sis_scan_fops sched_sis_small_llc_fops; do
	grep -q " $s\$" "$t/root/boot/System.map-$rel" || fail "System.map-$rel lacks the series' $s"
done
echo "# $(basename "$img"): /boot/vmlinuz-$rel, config with SCHEDSTATS DEBUG_FS PERF_EVENTS, System.map with sched_sis_scan_fops"
