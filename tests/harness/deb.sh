#!/usr/bin/env bash
# check: quick, budget 60 s
# make deb's bad input: no config where DEB_CONFIG points (the default,
# /boot/config-$(uname -r), is missing in containers and VMs), a config for
# another architecture; each is a clear error naming the fix, before any
# build, and out/deb is left as it was.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
D=$TOP/scripts/deb.sh
state() { ls -la --time-style=+%s "$TOP/out/deb" "$BUILD/kbuild-deb" 2>/dev/null | sha256sum; }
before=$(state)
expect_error 1 "no kernel config at $t/none; name one with DEB_CONFIG=" -- env DEB_CONFIG="$t/none" "$D"
printf 'CONFIG_ARM64=y\nCONFIG_SCHEDSTATS=y\n' >"$t/arm64.config"
expect_error 1 'is not an x86_64 kernel config .*; name one with DEB_CONFIG=' -- env DEB_CONFIG="$t/arm64.config" "$D"
# A host with every package but debhelper: named, with the apt-get line.
# The stand-in dpkg-query answers for every package asked about, so the
# answer does not depend on what this host has (a fresh one lacks rsync and
# libdw-dev too: make check 1 of the ninth session failed here).
fake_dpkg_query "$t"
cp "$TOP/configs/vm.config" "$t/x86.config"
echo 'CONFIG_X86_64=y' >>"$t/x86.config"
expect_error 1 'make deb needs debhelper; install with: apt-get install debhelper' -- \
	env DPKG_QUERY="$t/dpkg-query" MISSING=debhelper DEB_CONFIG="$t/x86.config" "$D"
[ "$(state)" = "$before" ] || fail "out/deb or build/kbuild-deb changed"
[ ! -e "$TOP/out/deb.partial" ] || fail "out/deb.partial left behind"
