#!/bin/bash
# fair.o of the series with the VM config minus the KUnit suite, for the objdump walk against kbuild-base
set -e
cd /work/main
o=build/kbuild-obj
mkdir -p $o
cp build/kbuild-vm/.config $o/.config
build/linux/scripts/config --file $o/.config --disable SCHED_PLACEMENT_KUNIT_TEST
km() { CCACHE_BASEDIR=/work/main CCACHE_NOHASHDIR=1 make -C build/linux O=$PWD/$o ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }
km -s olddefconfig
km -s -j2 prepare
km -s -j2 kernel/sched/fair.o
diff <(grep -v KUNIT_TEST $o/.config | grep -v '^#') <(grep -v '^#' build/kbuild-base/.config) && echo "configs equal but the KUnit option"
ls -la $o/kernel/sched/fair.o
