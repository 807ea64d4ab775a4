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
# --host (make deps HOST=1, and what make and make bench run with HOST=1
# once the machine passed their check): only what host mode runs here
# (scripts/lib/host.sh's HOST_NEEDS), never the VM's toolchain, and, when
# asked for (make deps HOST=1, not DEPS_AUTO), what make jobs' mmtests path
# runs (LAB_NEEDS: compare-kernels.sh's Perl modules and R, installed
# without apt's recommends: R's would pull in a toolchain); installed with
# apt on Debian and Ubuntu, named for the distribution family elsewhere
# (SP_OS_RELEASE stands for /etc/os-release).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/apt.sh"
# shellcheck source=lib/host.sh
. "$TOP/scripts/lib/host.sh"

pkgs=(build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils ccache git
	qemu-system-x86 rt-tests dbench linux-perf numactl udev gnuplot-nox busybox-static
	python3-ply python3-git libgsl-dev clang-19 lld-19 llvm-19 rsync
	dpkg-dev debhelper kmod libdw-dev)
VNG_VERSION=1.41-1
APT_GET=${APT_GET:-apt-get}
DPKG_QUERY=${DPKG_QUERY:-dpkg-query}
auto=${DEPS_AUTO:-}

# root_or_sudo WHAT CMD: set SUDO for installing WHAT, else stop naming CMD
# (the make command to run as root).
root_or_sudo() {
	if [ "$(id -u)" = 0 ]; then
		SUDO=${SUDO-}
	else
		SUDO=${SUDO-sudo}
		command -v "$SUDO" >/dev/null ||
			die "missing host packages: $1; installing them needs root: run 'sudo $2' (or as root: $2)"
	fi
}

# host_deps: --host. What is missing is found by running it (commands, GSL's
# headers), not by asking dpkg: the same on every family, and a tool built
# by hand counts.
host_deps() {
	local fam missing lab=() pkgs labpkgs=() all
	fam=$(os_family)
	mapfile -t missing < <(host_missing)
	local labc=()
	[ -n "$auto" ] || read -ra labc < <(lab_checks)
	[ ${#labc[@]} = 0 ] || mapfile -t lab < <(host_missing "${labc[@]}")
	all=("${missing[@]}" "${lab[@]}")
	if [ ${#all[@]} = 0 ]; then
		[ -n "$auto" ] || note "deps: all host mode and make jobs' mmtests path need is installed"
		return 0
	fi
	read -ra pkgs < <(host_pkgs "$fam" "${missing[@]}")
	[ ${#lab[@]} = 0 ] || read -ra labpkgs < <(host_pkgs "$fam" "${lab[@]}")
	[ "$fam" = debian ] ||
		die "host mode needs $(host_named "${all[@]}"), not found here; install them: $(host_install_hint "$fam" "${all[@]}")"
	command -v "$APT_GET" >/dev/null ||
		die "host mode needs $(host_named "${all[@]}"); $APT_GET not found: install $(host_pkgs "$fam" "${all[@]}") by hand"
	all=("${pkgs[@]}" "${labpkgs[@]}")
	root_or_sudo "${all[*]}" "make deps HOST=1"
	note "installing ${all[*]} (host mode)"
	$SUDO "$APT_GET" update -q >/dev/null
	[ ${#pkgs[@]} = 0 ] || DEBIAN_FRONTEND=noninteractive $SUDO "$APT_GET" install -y -q "${pkgs[@]}" >/dev/null
	[ ${#labpkgs[@]} = 0 ] ||
		DEBIAN_FRONTEND=noninteractive $SUDO "$APT_GET" install -y -q --no-install-recommends "${labpkgs[@]}" >/dev/null
	mapfile -t missing < <(host_missing)
	[ ${#labc[@]} = 0 ] || mapfile -t -O "${#missing[@]}" missing < <(host_missing "${labc[@]}")
	[ ${#missing[@]} = 0 ] || die "installed ${all[*]}, yet $(host_named "${missing[@]}") still not found; install them by hand"
	note "deps: installed ${all[*]}"
}
if [ "${1:-}" = --host ]; then
	host_deps
	exit
fi

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
root_or_sudo "$what" "make deps"

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
