#!/usr/bin/env bash
# Install the host packages the harness needs, idempotently. Needs root (or
# sudo) only when something is missing; with everything installed it is one
# dpkg query for all packages, so every make target that needs the host's tools
# runs it first (DEPS_AUTO=1: quiet when nothing is missing, and on a
# system without dpkg it leaves the tools to the user).
# virtme-ng 1.41 is not in bookworm: its architecture-all .deb comes from sid
# through a private apt state (the system's apt setup is not touched), and then
# installs with bookworm's own dependencies.
# APT_GET, DPKG_QUERY and SUDO name other binaries (for the tests).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/apt.sh"

pkgs=(build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils ccache git
	qemu-system-x86 rt-tests dbench linux-perf numactl udev gnuplot-nox busybox-static
	python3-ply python3-git libgsl-dev clang-19 lld-19 llvm-19 rsync
	dpkg-dev debhelper kmod libdw-dev)
VNG_VERSION=1.41-1
APT_GET=${APT_GET:-apt-get}
DPKG_QUERY=${DPKG_QUERY:-dpkg-query}
auto=${DEPS_AUTO:-}

if ! command -v "$DPKG_QUERY" >/dev/null; then
	[ -z "$auto" ] || exit 0
	die "$DPKG_QUERY not found: 'make deps' needs Debian or Ubuntu; install by hand: ${pkgs[*]} virtme-ng $VNG_VERSION"
fi
# One query for all.
declare -A ok=()
while read -r p v; do
	ok[$p]=$v
done < <(dpkg_installed "${pkgs[@]}" virtme-ng)
missing=()
for p in "${pkgs[@]}"; do
	[ -n "${ok[$p]:-}" ] || missing+=("$p")
done
# virtme-ng: $VNG_VERSION or newer (an older one lacks what vm.sh uses).
vng_missing=
[ -n "${ok[virtme-ng]:-}" ] && dpkg --compare-versions "${ok[virtme-ng]}" ge "$VNG_VERSION" || vng_missing=1
if [ ${#missing[@]} = 0 ] && [ -z "$vng_missing" ]; then
	[ -n "$auto" ] || note "deps: all installed (virtme-ng ${ok[virtme-ng]})"
	exit 0
fi

what="${missing[*]}${vng_missing:+ virtme-ng=$VNG_VERSION}"
what=${what# }
command -v "$APT_GET" >/dev/null ||
	die "missing host packages: $what; $APT_GET not found: install them by hand (the harness needs Debian or Ubuntu's apt to do it)"
if [ "$(id -u)" = 0 ]; then
	SUDO=${SUDO-}
else
	SUDO=${SUDO-sudo}
	command -v "$SUDO" >/dev/null ||
		die "missing host packages: $what; installing them needs root: run 'sudo make deps' (or as root: make deps)"
fi

if [ ${#missing[@]} -gt 0 ]; then
	note "installing ${missing[*]}"
	$SUDO "$APT_GET" update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive $SUDO "$APT_GET" install -y -q "${missing[@]}" >/dev/null
fi
if [ -n "$vng_missing" ]; then
	note "installing virtme-ng $VNG_VERSION from sid"
	apt=$CACHE/apt-sid
	private_apt "$apt" sid
	mkdir -p "$apt/deb"
	"$APT_GET" "${APT_OPTS[@]}" update >/dev/null
	(cd "$apt/deb" && rm -f ./*.deb && "$APT_GET" "${APT_OPTS[@]}" download "virtme-ng=$VNG_VERSION" >/dev/null)
	DEBIAN_FRONTEND=noninteractive $SUDO "$APT_GET" install -y -q "$apt"/deb/virtme-ng_*.deb >/dev/null
fi
note "deps: installed $what"
