# Host packages: what dpkg has installed, a private apt state; for deps, deb, fetch-base.
# shellcheck shell=bash

# dpkg_installed PKG...: "PKG VERSION" for each PKG dpkg has installed, in
# one query (DPKG_QUERY names another binary, for the tests). A package dpkg
# does not know is left out of its output.
dpkg_installed() {
	local p v st
	while read -r p v st; do
		case $st in *' ok installed') echo "$p $v" ;; esac
	done < <("${DPKG_QUERY:-dpkg-query}" -W -f '${Package} ${Version} ${Status}\n' "$@" 2>/dev/null || true)
}

# private_apt DIR SUITE [TYPE]: an apt state of our own under DIR that sees
# only SUITE of the mirror this machine already uses (we never name one),
# leaving the system's apt setup alone; TYPE deb (binary packages, the
# default) or deb-src (source packages). Sets APT_OPTS for apt-get/apt-cache.
private_apt() {
	local dir=$1 suite=$2 type=${3:-deb} mirror
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
	mirror=$("${APT_GET:-apt-get}" indextargets --format '$(REPO_URI)' 2>/dev/null |
		grep -v -- '-security' | sort -u | head -n1)
	[ -n "$mirror" ] || die "no apt mirror configured on this machine; run 'apt-get update' first"
	echo "$type [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
		>"$dir/sources.list"
	APT_OPTS=(-o "Dir::State=$dir/state" -o "Dir::Cache=$dir/cache"
		-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
		-o "Dir::State::status=/var/lib/dpkg/status" -o "APT::Sandbox::User=root" -q)
}
