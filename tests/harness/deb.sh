#!/usr/bin/env bash
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
# A host without debhelper: named, with the apt-get line.
mkdir "$t/bin"
printf '#!/bin/sh\n/usr/bin/dpkg-query "$@" | grep -v "^debhelper "\n' >"$t/bin/dpkg-query"
chmod +x "$t/bin/dpkg-query"
cp "$TOP/configs/vm.config" "$t/x86.config"
echo 'CONFIG_X86_64=y' >>"$t/x86.config"
expect_error 1 'make deb needs debhelper; install with: apt-get install debhelper' -- \
	env PATH="$t/bin:$PATH" DEB_CONFIG="$t/x86.config" "$D"
[ "$(state)" = "$before" ] || fail "out/deb or build/kbuild-deb changed"
[ ! -e "$TOP/out/deb.partial" ] || fail "out/deb.partial left behind"
