#!/usr/bin/env bash
# check: quick, budget 60 s
# The one check before a run that writes the sched features
# (bench/lib.sh's features_preflight), against a fake debugfs: not root,
# no features file, a feature the kernel lacks are each refused with the
# fix named, and debugfs, mounted by the check, is unmounted again; a good
# case passes and leaves it mounted. Then each of its four callers
# (ab-run.sh, the LKP and mmtests run-ab.sh of make jobs, HOST=1) refuses
# a run that is not root with the same message naming its own command,
# before it writes anything: one check, not four.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
mkdir -p "$t/dbg" "$t/bin"
# mount and umount stand-ins: mount makes the features file, umount
# removes it; each says it ran.
cat >"$t/bin/mount" <<EOF
#!/bin/sh
echo mount >>"$t/calls"
mkdir -p "$t/dbg/sched" && echo "SIS_UTIL NO_UTIL_FITS_CAPACITY" >"$t/dbg/sched/features"
EOF
cat >"$t/bin/umount" <<EOF
#!/bin/sh
echo umount >>"$t/calls"
rm -rf "$t/dbg/sched"
EOF
chmod +x "$t/bin/mount" "$t/bin/umount"
export SP_DEBUGFS=$t/dbg SP_MOUNT=$t/bin/mount SP_UMOUNT=$t/bin/umount SP_EUID=0
calls() { cat "$t/calls" 2>/dev/null | paste -sd' '; }
export TOP

expect_error 1 "error: run-x writes the running kernel's sched features: run it as root \(sudo x\)" -- \
	env SP_EUID=1000 bash -c '. "$TOP/bench/lib.sh"; features_preflight run-x "sudo x" SIS_UTIL'
[ -z "$(calls)" ] || fail "a run that is not root mounted debugfs: $(calls)"

expect_error 1 "no readable $t/dbg/sched/features: run-x needs debugfs, so a kernel with CONFIG_DEBUG_FS=y" -- \
	env SP_MOUNT=true bash -c '. "$TOP/bench/lib.sh"; features_preflight run-x "sudo x" SIS_UTIL'

: >"$t/calls"
expect_error 1 "unknown sched feature 'NO_SIS_BOGUS' \(a switch of the series needs a kernel of the series: make deb builds one\); this kernel \(.*\) has: SIS_UTIL UTIL_FITS_CAPACITY" -- \
	bash -c '. "$TOP/bench/lib.sh"; features_preflight run-x "sudo x" UTIL_FITS_CAPACITY NO_SIS_BOGUS'
[ "$(calls)" = "mount umount" ] || fail "a refusal did not unmount the debugfs it mounted; calls: $(calls)"

: >"$t/calls"
out=$(bash -c '. "$TOP/bench/lib.sh"; features_preflight run-x "sudo x" SIS_UTIL NO_UTIL_FITS_CAPACITY && echo "passed, mounted $features_mounted"' 2>&1) ||
	fail "a good case was refused: $out"
[ "$(calls)" = mount ] && [[ $out == *"passed, mounted 1" ]] && [[ $out == *">> mounted debugfs at $t/dbg"* ]] ||
	fail "a good case: want debugfs mounted and said, got: $out (calls: $(calls))"
echo "# passes with every feature, mounted and said so"

# The four callers, not root: the same check, each naming its own command.
mkdir -p "$t/dbg/sched"
echo "SIS_UTIL NO_UTIL_FITS_CAPACITY" >"$t/dbg/sched/features"
export SP_EUID=1000
expect_error 1 "error: ab-run.sh writes the running kernel's sched features: run it as root \(sudo ab-run.sh \.\.\.\)" -- \
	"$TOP/bench/ab-run.sh" -f UTIL_FITS_CAPACITY -n 1 -- true
J=$t/job.yaml
printf '%s\n' '# sp-set: fit-g4' '# sp-side-a: UTIL_FITS_CAPACITY' '# sp-side-b: NO_UTIL_FITS_CAPACITY' \
	'# sp-fields: hackbench.throughput' '# sp-reps: 2' 'testcase: hackbench' >"$J"
mkdir -p "$t/split"
for v in UTIL_FITS_CAPACITY NO_UTIL_FITS_CAPACITY; do
	printf 'sched_feature:\n  feature: %s\n' "$v" >"$t/split/fit-g4-$v.yaml"
done
expect_error 1 "error: run-ab.sh writes the running kernel's sched features: run it as root \(sudo \./run-ab\.sh JOB SPLIT_DIR\)" -- \
	env STATS=/bin/true LKP=/bin/true "$TOP/bench/lkp-ab.sh" "$J" "$t/split"
mkdir -p "$t/mm"
printf '#!/bin/sh\n' >"$t/mm/run-mmtests.sh"
chmod +x "$t/mm/run-mmtests.sh"
printf '%s\n' 'export SP_SET=fit-g4' 'export SP_SIDE_A=UTIL_FITS_CAPACITY' 'export SP_SIDE_B=NO_UTIL_FITS_CAPACITY' >"$t/config"
expect_error 1 "error: run-ab.sh writes the running kernel's sched features: run it as root \(sudo \./run-ab\.sh CONFIG MMTESTS_DIR\)" -- \
	"$TOP/bench/mmtests-ab.sh" "$t/config" "$t/mm"
expect_error 1 "error: HOST=1 writes the running kernel's sched features: run it as root \(sudo make \.\.\. HOST=1\)" -- \
	env HOST=1 SETS=pipe "$TOP/scripts/bench.sh" --check
