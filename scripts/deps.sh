#!/usr/bin/env bash
# Install the host packages the harness needs, idempotently. Needs root (or sudo).
# virtme-ng 1.41 is not in bookworm: its architecture-all .deb comes from sid
# through a private apt state (the system's apt setup is not touched), and then
# installs with bookworm's own dependencies.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils ccache git
	qemu-system-x86 rt-tests linux-perf numactl udev gnuplot-nox busybox-static
	python3-ply python3-git libgsl-dev)
VNG_VERSION=1.41-1

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
command -v apt-get >/dev/null || die "apt-get not found: 'make deps' needs Debian or Ubuntu; install by hand: ${pkgs[*]} virtme-ng"

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	note "installing ${missing[*]}"
	$SUDO apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}" >/dev/null
fi

if [ "$(dpkg-query -W -f '${Version}' virtme-ng 2>/dev/null)" != "$VNG_VERSION" ]; then
	note "installing virtme-ng $VNG_VERSION from sid"
	apt=$CACHE/apt-sid
	private_apt "$apt" sid
	mkdir -p "$apt/deb"
	apt-get "${APT_OPTS[@]}" update >/dev/null
	(cd "$apt/deb" && rm -f ./*.deb && apt-get "${APT_OPTS[@]}" download "virtme-ng=$VNG_VERSION" >/dev/null)
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "$apt"/deb/virtme-ng_*.deb >/dev/null
fi
note "deps: all installed ($(vng --version))"
