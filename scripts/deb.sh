#!/usr/bin/env bash
# `make deb`: installable Debian packages of the patched tree (build/linux)
# for bare metal, with the host's own kernel config plus what the series and
# bench/ need, so that a user with an EPYC can boot it and run bench/ as root.
#
#   DEB_CONFIG=/boot/config-$(uname -r) [DEB_OUT=out/deb] [DEB_OBJ=build/kbuild-deb] deb.sh
#
# DEB_CONFIG is the config to start from (default: the running kernel's in
# /boot). On top of it: SCHEDSTATS (the sis_scan histogram), DEBUG_FS (the
# features file), PERF_EVENTS (ab-run.sh counts with perf), and no
# SYSTEM_TRUSTED_KEYS or SYSTEM_REVOCATION_KEYS: a distribution config names
# its own certificates there (Debian's debian/certs/*.pem), which this tree
# does not have. The kernel is named <version><CONFIG_LOCALVERSION>-sched-placement:
# LOCALVERSION is given on make's command line, so that setlocalversion adds
# no "+" for the untagged commit and the config itself stays as given (a
# config that matches another build's hits ccache).
#
# The packages go to out/deb/, replaced only when the build succeeds: the
# build writes to build/kbuild-deb, and the packages move to out/deb through
# out/deb.partial. Objects stay in build/kbuild-deb for the next,
# incremental, run. A distribution config builds thousands of
# modules: expect hours on a few cores, and a large -dbg package when the
# config has debug info.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/apt.sh"
. "$TOP/scripts/lib/kbuild.sh"

cfg=${DEB_CONFIG:-/boot/config-$(uname -r)}
[ -r "$cfg" ] || die "no kernel config at $cfg; name one with DEB_CONFIG=/path/to/config (a distribution kernel's /boot/config-*)"
grep -q '^CONFIG_X86_64=y' "$cfg" ||
	die "$cfg is not an x86_64 kernel config (no CONFIG_X86_64=y); name one with DEB_CONFIG=/path/to/config"
# What the kernel's debian/control asks to build the binary packages
# (dpkg-buildpackage checks it and stops), and the tools it runs.
pkgs=(dpkg-dev debhelper rsync kmod libdw-dev libelf-dev libssl-dev bc bison flex)
command -v "${DPKG_QUERY:-dpkg-query}" >/dev/null || die "make deb builds Debian packages and needs a Debian or Ubuntu host (no dpkg-query)"
installed=" $(dpkg_installed "${pkgs[@]}" | cut -d' ' -f1 | tr '\n' ' ')"
missing=()
for p in "${pkgs[@]}"; do
	[[ $installed == *" $p "* ]] || missing+=("$p")
done
[ ${#missing[@]} = 0 ] || die "make deb needs ${missing[*]}; install with: apt-get install ${missing[*]}"
src=$BUILD/linux
[ -f "$src/kernel/sched/fair.c" ] || die "$src is not a kernel tree; run 'make tree' first"

# dpkg-buildpackage writes the packages next to the object directory, in
# build/; the object directory sits beside build/kbuild-vm, so that paths
# relative to it are the same and a matching config hits ccache.
obj=${DEB_OBJ:-$BUILD/kbuild-deb}
pkgdir=$(dirname "$obj")
need=(SCHEDSTATS DEBUG_FS PERF_EVENTS)
enable=()
for o in "${need[@]}"; do
	enable+=(--enable "$o")
done
mkdir -p "$obj"
rm -f "$pkgdir"/*.deb "$pkgdir"/*.buildinfo "$pkgdir"/*.changes
cp "$cfg" "$obj/.config"
"$src/scripts/config" --file "$obj/.config" "${enable[@]}" \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--disable LOCALVERSION_AUTO
kbuild_make "$src" "$obj" LOCALVERSION=-sched-placement -s olddefconfig >/dev/null
for o in "${need[@]}"; do
	grep -q "^CONFIG_$o=y" "$obj/.config" || die "CONFIG_$o is off after olddefconfig (a dependency of it is off in $cfg)"
done
note "building Debian packages of $(git -C "$src" log -1 --format='%h %s') with $cfg (build/kbuild-deb)"
kbuild_make "$src" "$obj" LOCALVERSION=-sched-placement -j"$(($(nproc) + 1))" bindeb-pkg >"$obj/build.log" 2>&1 ||
	die "the package build failed; the end of build/kbuild-deb/build.log:
$(tail -n 20 "$obj/build.log")"
compgen -G "$pkgdir/linux-image-*.deb" >/dev/null || die "the build made no linux-image package (build/kbuild-deb/build.log)"

out=${DEB_OUT:-$TOP/out/deb}
rm -rf "$out.partial"
mkdir -p "$out.partial"
cleanup_on_exit 'rm -rf "$out.partial"'
mv "$pkgdir"/*.deb "$out.partial/"
rm -rf "$out"
mv "$out.partial" "$out"
note "packages in ${out#"$TOP"/}/:"
(cd "$out" && ls -1 ./*.deb | sed 's|^\./|   |') >&2
rel=$(cat "$obj/include/config/kernel.release")
note "install with: dpkg -i ${out#"$TOP"/}/linux-image-${rel}_*.deb (the -dbg package holds debug info only), reboot into $rel, then run bench/ as root"
