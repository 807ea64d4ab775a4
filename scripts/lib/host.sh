# Host mode (HOST=1 of make and make bench): the A/B on the running kernel,
# for a machine booted into the patched kernel (make deb). Used by bench.sh,
# the driver of both.
# shellcheck shell=bash

# host_preflight [FEATURE...]: refuse, before anything is installed, built
# or written, unless bench/lib.sh's features_preflight passes (root,
# debugfs, mounted if it is not and unmounted again if the run is then
# refused), the running kernel has every switch of the series, and each
# FEATURE (NO_ allowed), and perf runs on it.
host_preflight() {
	local f missing=
	features_preflight HOST=1 "sudo make ... HOST=1" || exit 1
	for f in $(series_switches); do
		feature_known "$f" || missing="$missing $f"
	done
	[ -z "$missing" ] ||
		features_refuse "the running kernel ($(uname -r)) lacks the series' switches:$missing; boot a kernel of the series first (make deb builds one)" || exit 1
	features_exist "$@" || exit 1
	command -v perf >/dev/null && perf version >/dev/null 2>&1 ||
		features_refuse "perf not found, or it does not run on this kernel ($(uname -r)): install it ($(host_install_hint "$(os_family)" perf)), or build the booted kernel's own: make -C tools/perf in its tree" || exit 1
}

# What host mode runs on this machine besides perf (host_preflight's) and
# the base system, one line each: a check, then its package on Debian and
# Ubuntu (apt), Fedora and RHEL (dnf), openSUSE (zypper) and Arch (pacman).
# A check is a command on PATH, or gsl: GSL's headers, which make compiles
# build/bin/stats (bench/stats.c) against. hackbench is the load of most
# sets and of make's A/B, cyclictest that of lat-N, tbench that of the
# tbench sets, gnuplot draws every set's plots.
HOST_NEEDS='gcc        build-essential gcc       gcc       base-devel
gsl        libgsl-dev      gsl-devel gsl-devel gsl
hackbench  rt-tests        rt-tests  rt-tests  rt-tests
cyclictest rt-tests        rt-tests  rt-tests  rt-tests
tbench     dbench          dbench    dbench    dbench
tbench_srv dbench          dbench    dbench    dbench
gnuplot    gnuplot-nox     gnuplot   gnuplot   gnuplot
perf       linux-perf      perf      perf      perf'

# What make jobs' mmtests path runs on the lab machine besides mmtests
# itself, in HOST_NEEDS's columns: compare-kernels.sh, which needs Perl's
# File::Which and YAML::PP, and R for its significance marks (without R it
# says "R: not found" and marks no difference significant). A check
# perl:MODULE is a module Perl loads. make deps HOST=1 installs these too;
# make HOST=1 and make bench HOST=1, which do not run mmtests, do not.
LAB_NEEDS='perl:File::Which libfile-which-perl perl-File-Which perl-File-Which perl-file-which
perl:YAML::PP     libyaml-pp-perl    perl-YAML-PP    perl-YAML-PP    perl-yaml-pp
R                 r-base-core        R-core          R-base          r'

# os_family: this machine's distribution family, from os-release's ID and
# ID_LIKE (SP_OS_RELEASE names another file, for the tests): debian,
# fedora (also RHEL and its rebuilds), suse, arch, or unknown.
os_family() {
	local f=${SP_OS_RELEASE:-/etc/os-release} id
	for id in $(sed -n 's/^\(ID\|ID_LIKE\)=//p' "$f" 2>/dev/null | tr -d '"'"'"); do
		case $id in
		debian | ubuntu) echo debian && return ;;
		fedora | rhel | centos | rocky | almalinux) echo fedora && return ;;
		opensuse* | suse | sles) echo suse && return ;;
		arch | manjaro | endeavouros) echo arch && return ;;
		esac
	done
	echo unknown
}

# host_missing [CHECK...]: those of CHECKs (default: all of HOST_NEEDS but
# perf) this machine lacks, one a line.
host_missing() {
	local c checks=("$@")
	[ $# -gt 0 ] || read -ra checks < <(awk '$1 != "perf" { print $1 }' <<<"$HOST_NEEDS" | xargs)
	for c in "${checks[@]}"; do
		case $c in
		gsl) gcc -E - <<<'#include <gsl/gsl_cdf.h>' >/dev/null 2>&1 || echo gsl ;;
		perl:*) perl -M"${c#perl:}" -e 1 >/dev/null 2>&1 || echo "$c" ;;
		*) command -v "$c" >/dev/null || echo "$c" ;;
		esac
	done
}

# lab_checks: the checks of LAB_NEEDS, on one line.
lab_checks() {
	awk '{ print $1 }' <<<"$LAB_NEEDS" | xargs
}

# host_named CHECK...: CHECKs as a message names them.
host_named() {
	printf '%s\n' "$@" | sed 's/^gsl$/GSL headers/; s/^perl:\(.*\)/Perl'"'"'s \1/' | paste -sd' '
}

# host_pkgs FAMILY CHECK...: the packages of CHECKs on FAMILY (an unknown
# one: Debian's names), each once.
host_pkgs() {
	local col
	case $1 in debian | unknown) col=2 ;; fedora) col=3 ;; suse) col=4 ;; arch) col=5 ;; esac
	shift
	awk -v col="$col" -v want=" $* " 'index(want, " " $1 " ") && !seen[$col]++ { print $col }' <<<"$HOST_NEEDS
$LAB_NEEDS" | xargs
}

# host_install_hint FAMILY CHECK...: how to install what CHECKs need on
# FAMILY, for messages, and where to find what a family's main archive
# may lack (dbench, rt-tests).
host_install_hint() {
	local fam=$1 p more=
	shift
	p=$(host_pkgs "$fam" "$@")
	case $fam:" $p " in
	fedora:*" dbench "*) more=" (on RHEL, dbench is in EPEL)" ;;
	suse:*" dbench "*) more=" (dbench is in the benchmark repository)" ;;
	arch:*" dbench "* | arch:*" rt-tests "*) more=" (what pacman lacks of these is in the AUR)" ;;
	esac
	case $fam in
	debian) echo "apt-get install $p" ;;
	fedora) echo "dnf install $p$more" ;;
	suse) echo "zypper install $p$more" ;;
	arch) echo "pacman -S $p$more" ;;
	*) echo "your distribution's packages of $(host_named "$@") (on Debian: $p)" ;;
	esac
}

# host_topology DIR: the machine's topology (bench/topology.sh) in
# DIR/topology, for the results record and the report's head
# (scripts/lib/report.sh).
host_topology() {
	mkdir -p "$1"
	"$TOP/bench/topology.sh" >"$1/topology"
}
