#!/usr/bin/env bash
# check: quick, budget 90 s
# The cache ledger's QEMU plugin on the host, no QEMU process: its header
# fetch refuses, naming the fix and leaving nothing in the cache, when the
# QEMU is not Debian's pinned build, has no plugin support, or the download
# fails or does not match the pin; the plugin builds against the fetched
# header and, loaded by ledger/test-plugin.c (a stand-in for QEMU's plugin
# host), instruments nothing before the first start marker, asks for one
# reset, counts only inside windows and writes one key=value line per
# window; bad arguments and a bad cache file fail its install with one line.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
F=$TOP/ledger/fetch-header.sh
pin=$(sed -n 's/^SOURCE_VERSION=//p' "$TOP/ledger/qemu-source")

# A stand-in dpkg-query: the QEMU binary's owner and its source version.
cat >"$t/dpkg-query" <<'SH'
#!/bin/sh
case $1 in
-S) [ -n "$FAKE_OWNER" ] && echo "$FAKE_OWNER: $2" ;;
-W) printf '%s' "$FAKE_SRCVER" ;;
esac
SH
chmod +x "$t/dpkg-query"
export DPKG_QUERY=$t/dpkg-query FAKE_OWNER=qemu-system-x86 FAKE_SRCVER=$pin
# A stand-in apt-get: the machine's mirror, then update and source fail or
# succeed as FAKE_APT says; source writes junk files under the pinned names.
cat >"$t/apt-get" <<SH
#!/bin/sh
for a; do case \$a in
indextargets) echo http://mirror.invalid/debian/; exit 0 ;;
update) [ "\$FAKE_APT" = update-fails ] && { echo 'E: network down'; exit 100; }; exit 0 ;;
source) [ "\$FAKE_APT" = source-fails ] && { echo 'E: no such version'; exit 100; }
	for f in $(sed -n 's/^\(DSC\|ORIG\|DEBIAN\)=//p' "$TOP/ledger/qemu-source" | xargs); do echo junk >"\$f"; done; exit 0 ;;
esac; done
SH
chmod +x "$t/apt-get"
cp /bin/true "$t/qemu-noplugin"

had_cache=${SCHED_PLACEMENT_CACHE+set} user_cache=${SCHED_PLACEMENT_CACHE-}
private_cache
clean() {
	local left
	left=$(find "$SCHED_PLACEMENT_CACHE" -mindepth 1 -maxdepth 1 ! -name 'apt-src-*')
	[ -z "$left" ] || fail "a failed fetch left this in the cache: $left"
}
FAKE_SRCVER=1:7.2+dfsg-7+deb12u99 expect_error 1 \
	"built from qemu 1:7.2\+dfsg-7\+deb12u99, ledger/qemu-source pins .*install the pinned version" -- "$F"
FAKE_OWNER='' expect_error 1 "is not from Debian's qemu-system-x86 .*unset QEMU_BIN" -- "$F"
QEMU_BIN=$t/qemu-noplugin expect_error 1 'qemu-noplugin has no plugin support' -- "$F"
QEMU_BIN=/nonexistent/qemu expect_error 1 'not found; run .make deps.' -- "$F"
APT_GET=$t/apt-get FAKE_APT=update-fails expect_error 1 "apt-get update of bookworm's sources failed .see below.; check the network" -- "$F"
APT_GET=$t/apt-get FAKE_APT=source-fails expect_error 1 "apt-get source qemu=.* failed .see below.; check the network" -- "$F"
APT_GET=$t/apt-get FAKE_APT='' expect_error 1 'sha256 mismatch for qemu_.*\.dsc.*ledger/qemu-source pins' -- "$F"
grep -q mirror.invalid "$SCHED_PLACEMENT_CACHE"/apt-src-bookworm/sources.list ||
	fail "the private apt state does not use the machine's mirror"
grep -q '^deb-src ' "$SCHED_PLACEMENT_CACHE"/apt-src-bookworm/sources.list || fail "no deb-src entry"
clean
unset DPKG_QUERY

# The real header (fetched once into the user's cache) and the plugin.
if [ -n "$had_cache" ]; then
	inc=$(SCHED_PLACEMENT_CACHE=$user_cache "$F")
else
	inc=$(env -u SCHED_PLACEMENT_CACHE "$F")
fi || fail "fetching the QEMU plugin header failed"
gcc -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden -I"$inc" -o "$t/libledger.so" \
	"$TOP/ledger/ledger.c" "$TOP/ledger/model.c" || fail "the plugin does not build"
gcc -O2 -Wall -Wextra -Werror -rdynamic -I"$inc" -o "$t/test-plugin" "$TOP/ledger/test-plugin.c" -ldl ||
	fail "ledger/test-plugin.c does not build"
P=("$t/test-plugin" "$t/libledger.so")
out=$("${P[@]}" --run "$TOP/ledger/zen3.conf" "$t/out") || fail "plugin sequence: $out"
[ "$(wc -l <"$t/out")" = 2 ] || fail "want 2 window lines, got: $(cut -c1-200 "$t/out")"
# field FILE-LINE KEY: the value of KEY on that line of the output.
field() { sed -n "$1p" "$t/out" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
[ "$(field 1 window) $(field 1 label) $(field 1 dram_local) $(field 1 l2_miss) $(field 1 llc0.dram_local) $(field 1 cpu0.dram_local)" = "1 3 4096 4096 4096 4096" ] ||
	fail "window 1 wrong: $(cut -c1-300 "$t/out" | head -n1)"
[ "$(field 2 window) $(field 2 label) $(field 2 c2c_remote) $(field 2 dram_local) $(field 2 unmodelled) $(field 2 llc2.c2c_remote) $(field 2 llc2.dram_local) $(field 2 cpu5.l2_miss)" = "2 4 64 128 2 64 64 0" ] ||
	fail "window 2 wrong (or accesses between windows counted): $(sed -n 2p "$t/out" | cut -c1-300)"
# every field is KEY=VALUE and both lines have the same keys in the same order
awk '{ for (i = 1; i <= NF; i++) if ($i !~ /^[a-z0-9_.]+=[0-9.]+$/) { print "bad field " $i; exit 1 } }' "$t/out" ||
	fail "a field is not KEY=NUMBER"
[ "$(sed -n 1p "$t/out" | sed 's/=[^ ]*//g')" = "$(sed -n 2p "$t/out" | sed 's/=[^ ]*//g')" ] ||
	fail "the two lines' keys differ"
echo "# $(head -c 160 "$t/out")..."

C=$TOP/ledger/zen3.conf
T=(sockets=2 dies=2 cores=8 threads=2)
expect_error 1 "ledger: topology 1 x 2 x 8 x 2 does not match QEMU's 64 vCPUs" -- \
	"${P[@]}" sockets=1 dies=2 cores=8 threads=2 cache="$C" out="$t/o"
expect_error 1 'ledger: give the topology as -smp has it' -- "${P[@]}" cache="$C" out="$t/o"
expect_error 1 "ledger: unknown argument 'file'" -- "${P[@]}" "${T[@]}" file=x cache="$C" out="$t/o"
expect_error 1 'ledger: threads=two: want a positive whole number' -- "${P[@]}" sockets=2 dies=2 cores=8 threads=two
# account() finds an address's node by a shift: a node size that is not a
# power of two must be refused at install, not misplace addresses.
expect_error 1 'ledger: node_mb=1536: want a power of two, e.g. 1024 .*give the nodes such a size' -- \
	"${P[@]}" "${T[@]}" node_mb=1536 cache="$C" out="$t/o"
grep -v '^lat_dram_remote ' "$C" >"$t/bad.conf"
expect_error 1 'ledger: .*bad.conf: lat_dram_remote is missing' -- "${P[@]}" "${T[@]}" cache="$t/bad.conf" out="$t/o"
expect_error 1 'ledger: cannot open out=/nonexistent/o' -- "${P[@]}" "${T[@]}" cache="$C" out=/nonexistent/o
TP_VERSION=2 expect_error 1 'ledger: built for QEMU 7.2.s plugin API .version 1., this QEMU has version 2' -- \
	"${P[@]}" "${T[@]}" cache="$C" out="$t/o"
"${P[@]}" "${T[@]}" cache="$C" out="$t/o" || fail "a good install failed"
"${P[@]}" "${T[@]}" node_mb=512 cache="$C" out="$t/o" || fail "an install with node_mb=512 failed"
