# shellcheck shell=bash
# Kernels of the series changed on purpose (a mutant, a throwaway control):
# PATCH applied on top of build/linux, built in build/kbuild-mutant (a copy
# of build/kbuild-vm, so only the files the patch touches are compiled),
# kept as build/mutants/NAME-bzImage. build/linux is put back after each.

# mutant_check: build/linux clean and a VM kernel built, before anything.
mutant_check() {
	[ -z "$(git -C "$BUILD/linux" status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes; run 'make tree' first"
	[ -f "$BUILD/kbuild-vm/.config" ] || die "no build/kbuild-vm; run 'make kernel' first"
}

# mutant_build PATCH: prints the path of the mutant's bzImage. The caller
# restores build/linux on exit too (git checkout), for an interrupted build.
mutant_build() {
	local patch=$1 name k
	name=$(basename "$patch" .patch)
	git -C "$BUILD/linux" apply "$patch" || die "$patch does not apply to build/linux"
	mkdir -p "$BUILD/mutants"
	rsync -a --delete "$BUILD/kbuild-vm/" "$BUILD/kbuild-mutant/"
	k=$("$TOP/scripts/build-kernel.sh" "$BUILD/linux" "$BUILD/kbuild-mutant") || {
		git -C "$BUILD/linux" checkout -q -- .
		die "the mutant $name does not build"
	}
	cp "$k" "$BUILD/mutants/$name-bzImage"
	git -C "$BUILD/linux" checkout -q -- .
	echo "$BUILD/mutants/$name-bzImage"
}
