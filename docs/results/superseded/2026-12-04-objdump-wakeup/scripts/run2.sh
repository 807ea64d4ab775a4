#!/bin/bash
# Regenerates everything objwalk2.md quotes (run2.sh > ../run.raw; paths2.trace: ../paths.raw.xz).
# Read-only on /work/main: objdump/readelf/nm of the two fair.o files only.
set -e
B=${BUILD:-/work/main/build}; N=$(cd "$(dirname "$0")" && pwd); D=$N
BO=$B/kbuild-base/kernel/sched/fair.o; SO=$B/kbuild-obj/kernel/sched/fair.o
BF=$B/linux-base/kernel/sched/features.h; SF=$B/linux/kernel/sched/features.h
cd $D
echo "== .config difference (kbuild-base vs kbuild-obj, comment lines dropped)"
diff <(grep -v '^#' $B/kbuild-base/.config) <(grep -v '^#' $B/kbuild-obj/.config) && echo "  none"
grep PLACEMENT_KUNIT $B/kbuild-obj/.config || true
echo "== series tree: $(git -C $B/linux log -1 --format="%h tree %t %s") ; $(git -C $B/linux status --short | wc -l) modified files"
echo "== functions whose instruction text differs (stripped of addresses); insns base series"
python3 $D/funcdiff.py $BO $SO
echo "== static-branch sites per function where base and series differ (.rela__jump_table)"
python3 $D/jtall.py $BO $BF $SO $SF
echo "== sites with keys"
python3 $N/jt.py $BO $BF select_task_rq_fair
python3 $N/jt.py $SO $SF select_task_rq_fair select_fitting_cpu
python3 $N/rel.py $BO select_task_rq_fair > base.strf.txt
python3 $N/rel.py $SO select_task_rq_fair > obj.strf.txt
python3 $N/rel.py $SO select_fitting_cpu > obj.sfc.txt
wc -l base.strf.txt obj.strf.txt obj.sfc.txt
echo "== calls of select_fitting_cpu in series fair.o"
objdump -d $SO | grep -E 'call +[0-9a-f]+ <select_fitting_cpu>$' || true
echo "== prefix: base vs series select_task_rq_fair"
python3 $D/cmpprefix.py base.strf.txt obj.strf.txt
echo "== reachability (new sites held at their default)"
python3 $N/reach.py base.strf.txt $BO $BF select_task_rq_fair
python3 $N/reach.py obj.strf.txt $SO $SF select_task_rq_fair
python3 $N/reach.py obj.strf.txt $SO $SF select_task_rq_fair 51b 9a0 9d6 a16 cbb
for s in 51b 9a0 9d6 a16 cbb; do python3 $N/reach.py obj.strf.txt $SO $SF select_task_rq_fair $s | sed -n 1p; done
echo "== default paths"
python3 $D/paths2.py
python3 $D/paths2.py -t > paths2.trace
