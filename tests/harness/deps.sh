#!/usr/bin/env bash
# check: quick, budget 60 s
# The deps step that every make target runs first: silent and cheap when all
# is installed, installs exactly what is missing, and names the fix when it
# cannot. dpkg-query and apt-get are stand-ins; nothing is installed.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
D=$TOP/scripts/deps.sh
# A dpkg-query that knows every package asked for but those in $MISSING.
fake_dpkg_query "$t"
# An apt-get that records what it was asked.
printf '#!/bin/sh\necho "$*" >>"%s/apt.log"\n' "$t" >"$t/apt-get"
chmod +x "$t/apt-get"
export DPKG_QUERY=$t/dpkg-query SUDO=

# All installed: nothing printed in auto mode, apt never called.
out=$(MISSING= DEPS_AUTO=1 APT_GET=$t/apt-get "$D" 2>&1) || fail "all installed: exit $?: $out"
[ -z "$out" ] || fail "all installed: auto mode printed: $out"
[ ! -e "$t/apt.log" ] || fail "all installed: apt-get was called: $(cat "$t/apt.log")"
echo "# all installed: silent, no apt-get"

# A newer virtme-ng counts as installed; an older one is replaced.
out=$(VNG_V=1.50-1 DEPS_AUTO=1 APT_GET=$t/apt-get "$D" 2>&1) || fail "virtme-ng 1.50: exit $?: $out"
[ ! -e "$t/apt.log" ] || fail "virtme-ng 1.50 is newer than 1.41-1, yet apt-get was called: $(cat "$t/apt.log")"
VNG_V=1.30-1 APT_GET=/nonexistent/apt-get expect_error 1 'missing host packages: virtme-ng=1.41-1' -- "$D"

# One package missing: installed, and only it.
out=$(MISSING=ccache DEPS_AUTO=1 APT_GET=$t/apt-get "$D" 2>&1) || fail "ccache missing: exit $?: $out"
grep -qx 'install -y -q ccache' "$t/apt.log" || fail "ccache missing: apt-get got: $(cat "$t/apt.log")"
echo "# one missing: apt-get $(tail -n1 "$t/apt.log")"

# Missing and no apt: the error names the packages.
MISSING="ccache gnuplot-nox" APT_GET=/nonexistent/apt-get \
	expect_error 1 'missing host packages: ccache gnuplot-nox; .*install them by hand' -- "$D"
# No dpkg at all: make goes on in auto mode; make deps says what to install.
out=$(DPKG_QUERY=/nonexistent/dpkg-query DEPS_AUTO=1 "$D" 2>&1) || fail "no dpkg, auto: exit $?: $out"
DPKG_QUERY=/nonexistent/dpkg-query expect_error 1 'needs Debian or Ubuntu; install by hand: build-essential' -- "$D"
