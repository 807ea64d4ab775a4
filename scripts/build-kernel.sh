#!/usr/bin/env bash
# Build a bzImage out of tree: tinyconfig plus our fragments, through ccache.
#
#   build-kernel.sh [SRC [OBJ]]     FLAVOR=vm|debug|kcsan (default vm)
#
# SRC defaults to build/linux, OBJ to build/kbuild-$FLAVOR. The config is made
# again only when a fragment changes, so a rebuild with nothing changed is a
# no-op and a rebuild after a fair.c edit recompiles just that.
# Prints the path of the bzImage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib/kbuild.sh"

FLAVOR=${FLAVOR:-vm}
# Absolute: kbuild takes O= relative to the source tree, not to us.
SRC=$(realpath -m "${1:-$BUILD/linux}")
OBJ=$(realpath -m "${2:-$BUILD/kbuild-$FLAVOR}")
JOBS=${JOBS:-$(($(nproc) + 1))}

frags=("$TOP/configs/vm.config")
case $FLAVOR in
vm) ;;
debug | kcsan) frags+=("$TOP/configs/stress.config" "$TOP/configs/$FLAVOR.config") ;;
*) die "unknown FLAVOR=$FLAVOR; use FLAVOR=vm, FLAVOR=debug or FLAVOR=kcsan" ;;
esac
[ -f "$SRC/kernel/sched/fair.c" ] || die "$SRC is not a kernel tree; run 'make tree' first"
command -v ccache >/dev/null || die "ccache not found; run 'make deps'"

mkdir -p "$OBJ"
kmake() {
	kbuild_make "$SRC" "$OBJ" -s "$@"
}

# Fragment symbols this tree does not define (a test the series adds, on the
# base or an early commit) are skipped, so one fragment serves every tree.
# They are part of the config's identity: when a tree starts defining one,
# the config is made again rather than left without it.
unknown=$(comm -23 <(cat "${frags[@]}" | sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' | sort -u) \
	<(grep -rhoE --include='Kconfig*' '^[[:space:]]*(menu)?config [A-Za-z0-9_]+' "$SRC" |
		awk '{print $2}' | sort -u))
want=$( (cat "${frags[@]}"; echo "unknown: $unknown") | sha256sum | cut -c1-16)
if [ "$(cat "$OBJ/.sp-config" 2>/dev/null)" != "$want" ] || [ ! -f "$OBJ/.config" ]; then
	note "configuring $FLAVOR kernel in $OBJ"
	rm -f "$OBJ/.sp-config"
	kmake tinyconfig >/dev/null
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# merge_config only warns when Kconfig drops a line; we fail.
	[ -z "$unknown" ] || note "not defined in this tree, skipped: $(echo $unknown)"
	missing=$(cat "${frags[@]}" | grep -E '^CONFIG_' | while read -r l; do
		grep -qxF "$l" "$OBJ/.config" && continue
		sym=${l%%=*}
		echo "$unknown" | grep -qx "${sym#CONFIG_}" && continue
		echo "$l"
	done)
	[ -z "$missing" ] || die "the kernel config dropped these fragment lines (a dependency is missing from configs/): $missing"
	echo "$want" >"$OBJ/.sp-config"
fi
# kernel/sched/Makefile turns KCSAN off for the whole directory. The KCSAN
# flavour exists to look for races in the series' code, so it instruments
# fair.c and build_utility.c (which includes debug.c) anyway, by their
# per-object switches, which come before the directory's; the tree is not
# changed.
extra=()
[ "$FLAVOR" != kcsan ] || extra=(KCSAN_SANITIZE_fair.o=y KCSAN_SANITIZE_build_utility.o=y)
note "building $FLAVOR kernel ($SRC -> $OBJ, -j$JOBS)"
kmake -j"$JOBS" "${extra[@]}" bzImage
echo "$OBJ/arch/x86/boot/bzImage"
