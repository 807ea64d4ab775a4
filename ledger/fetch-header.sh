#!/usr/bin/env bash
# Fetch the QEMU plugin header the cache ledger is built against, once.
#
# Prints the directory that holds qemu-plugin.h (in the download cache).
# The header is in no binary package of Debian, only in the source package
# `qemu`; ledger/qemu-source pins its version and the sha256 of each file.
# Before anything is fetched, the QEMU that will load the plugin is checked:
# it must be Debian's qemu-system-x86 built from the pinned source version,
# with plugin support. The source is fetched with a private apt state (the
# machine's own mirror, never one named here) and only the header is kept;
# it lands in the cache through a temporary name and a rename, so a failed
# run leaves nothing half-written behind.
#
# QEMU_BIN names the QEMU binary (as in scripts/vm.sh); APT_GET, DPKG_QUERY
# and LEDGER_QEMU_SOURCE (the pin file) are for the tests.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
. "$TOP/scripts/lib/apt.sh"

PIN=${LEDGER_QEMU_SOURCE:-$TOP/ledger/qemu-source}
APT_GET=${APT_GET:-apt-get}
QEMU_BIN=${QEMU_BIN:-qemu-system-x86_64}

pin() { pin_get "$PIN" "$1"; }
BINARY_PACKAGE=$(pin BINARY_PACKAGE)
SOURCE_PACKAGE=$(pin SOURCE_PACKAGE)
SOURCE_VERSION=$(pin SOURCE_VERSION)
SUITE=$(pin SUITE)
HEADER_PATH=$(pin HEADER_PATH)
HEADER_SHA256=$(pin HEADER_SHA256)

# The QEMU that will load the plugin: Debian's, the pinned source version,
# built with plugins (it then exports the plugin API to the modules it loads).
qbin=$(command -v "$QEMU_BIN") ||
	die "QEMU ($QEMU_BIN) not found; run 'make deps' (installs $BINARY_PACKAGE)"
qbin=$(readlink -f "$qbin")
owner=$("${DPKG_QUERY:-dpkg-query}" -S "$qbin" 2>/dev/null | sed -n '1s/:.*//p') || true
[ "$owner" = "$BINARY_PACKAGE" ] ||
	die "$qbin is not from Debian's $BINARY_PACKAGE (dpkg says: ${owner:-no package}); the ledger's header is pinned for that build: unset QEMU_BIN, or pin your QEMU's own source in ledger/qemu-source"
installed=$("${DPKG_QUERY:-dpkg-query}" -W -f '${source:Version}' "$BINARY_PACKAGE" 2>/dev/null) || true
[ "$installed" = "$SOURCE_VERSION" ] ||
	die "installed $BINARY_PACKAGE is built from $SOURCE_PACKAGE ${installed:-(unknown)}, ledger/qemu-source pins $SOURCE_VERSION: a plugin must be built against the header of the QEMU that loads it; install the pinned version (apt-get install $BINARY_PACKAGE=$SOURCE_VERSION, with its +bN suffix if any), or update ledger/qemu-source after checking the new header"
command -v nm >/dev/null || die "nm not found; install binutils (it comes with gcc)"
nm -D --defined-only "$qbin" 2>/dev/null | grep -w qemu_plugin_register_vcpu_mem_cb >/dev/null ||
	die "$qbin has no plugin support (it exports no qemu_plugin_* API); the ledger needs a QEMU built with plugins (Debian's $BINARY_PACKAGE is)"

dest=$CACHE/qemu-plugin-${SOURCE_VERSION//[^A-Za-z0-9.+-]/_}-${HEADER_SHA256:0:12}
if [ -f "$dest/qemu-plugin.h" ]; then
	echo "$dest"
	exit 0
fi

command -v "$APT_GET" >/dev/null ||
	die "$APT_GET not found: fetching the QEMU plugin header needs Debian's apt"
mkdir -p "$CACHE"
tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
cleanup_on_exit 'rm -rf "$tmp"'

private_apt "$CACHE/apt-src-$SUITE" "$SUITE" deb-src
note "fetching $SOURCE_PACKAGE $SOURCE_VERSION source from $SUITE for qemu-plugin.h (about 24 MB, once)"
"$APT_GET" "${APT_OPTS[@]}" update >"$tmp/apt.log" 2>&1 ||
	die "apt-get update of $SUITE's sources failed (see below); check the network and retry
$(tail -n 5 "$tmp/apt.log")"
(cd "$tmp" && "$APT_GET" "${APT_OPTS[@]}" source --download-only "$SOURCE_PACKAGE=$SOURCE_VERSION" >>"$tmp/apt.log" 2>&1) ||
	die "apt-get source $SOURCE_PACKAGE=$SOURCE_VERSION failed (see below); check the network, or whether $SUITE still carries it (then pin the version you install in ledger/qemu-source)
$(tail -n 3 "$tmp/apt.log")"
for f in DSC ORIG DEBIAN; do
	name=$(pin "$f")
	want=$(pin "${f}_SHA256")
	[ -f "$tmp/$name" ] || die "apt-get source did not fetch $name; the archive's $SOURCE_PACKAGE $SOURCE_VERSION is not the one ledger/qemu-source pins"
	got=$(sha256_of "$tmp/$name")
	[ "$got" = "$want" ] ||
		die "sha256 mismatch for $name: got $got, ledger/qemu-source pins $want; the archive copy changed: check the mirror, or update the pin after reviewing the new source"
done
# Debian's patches are applied over the orig tarball when QEMU is built: none
# of them may touch the header, or the orig tarball's copy is not the one the
# installed QEMU was built with.
tar -xJf "$tmp/$(pin DEBIAN)" -C "$tmp" debian/patches
if grep -rlE "^\+\+\+ [^ ]*/${HEADER_PATH#*/}" "$tmp/debian/patches" >"$tmp/touch" 2>/dev/null; then
	die "Debian's patches change ${HEADER_PATH#*/} ($(xargs -n1 basename <"$tmp/touch" | xargs)); the orig tarball's header is not the installed QEMU's: apply them (not done here), or pin a version whose patches leave it alone"
fi
tar -xJf "$tmp/$(pin ORIG)" -C "$tmp" "$HEADER_PATH"
got=$(sha256_of "$tmp/$HEADER_PATH")
[ "$got" = "$HEADER_SHA256" ] ||
	die "sha256 mismatch for $HEADER_PATH: got $got, ledger/qemu-source pins $HEADER_SHA256"
mkdir "$tmp/out"
mv "$tmp/$HEADER_PATH" "$tmp/out/qemu-plugin.h"
mv "$tmp/out" "$dest"
echo "$dest"
