#!/usr/bin/env bash
# check: quick, budget 120 s
# HOST=1 (make bench and make on the running kernel) against a fake sysfs,
# debugfs and cpuinfo: each bad case (not root, no debugfs, a kernel
# without the series' switches, an unknown set) is refused with a message
# that names the fix, before anything is written: no results directory,
# the features file as it was; make bench's check, which comes before make
# builds the tools, does not want them. Then one set end to end (pipe-pair, whose
# also-on switch is written and cleared too) and make's A/B: the report,
# the tables, results.json, the topology record equal to the fake tree's,
# and the features file restored byte for byte; and a set that fails after
# a complete one, which is still reported. The workloads really run
# on this host; only the files of the kernel's interface are fakes.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
make -s -C "$TOP" tools >/dev/null || fail "make tools failed"
# The series' switches at their defaults, but UTIL_FITS_CAPACITY on, so that
# a restore to the defaults would show.
fake_host "$t" UTIL_FITS_CAPACITY
dbg=$SP_DEBUGFS features=$(cat "$SP_DEBUGFS/sched/features")
export SP_RESULTS=$t/results HOST=1
bench() { env REPS=2 PIPE_LOOPS=2000 "$@" "$TOP/scripts/bench.sh"; }
untouched() { # CASE
	[ -z "$(ls -A "$t/results" 2>/dev/null)" ] || fail "$1 left $(ls "$t/results")"
	[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "$1 changed the features file: $(cat "$dbg/sched/features")"
}
expect_error 1 "run it as root \(sudo make \.\.\. HOST=1\)" -- bench SP_EUID=1000 SETS=pipe
untouched "not root"
expect_error 1 "no readable $t/none/sched/features: HOST=1 needs debugfs, so a kernel with CONFIG_DEBUG_FS=y" -- bench SP_DEBUGFS="$t/none" SETS=pipe
untouched "no debugfs"
echo "${features/ NO_SIS_SMALL_LLC/}" >"$dbg/sched/features"
expect_error 1 "lacks the series' switches: SIS_SMALL_LLC; boot a kernel of the series first \(make deb builds one\)" -- bench SETS=pipe
echo "$features" >"$dbg/sched/features"
untouched "a kernel without the switches"
expect_error 2 "unknown set 'nosuch'" -- bench SETS='pipe nosuch'
untouched "an unknown set"
# make bench checks its sets before it builds the tools: a set that runs
# one of them passes that check without it, and the run is refused.
out=$(env SP_SCHBENCH="$t/none" SETS=schbench-2 "$TOP/scripts/bench.sh" --check 2>&1) ||
	fail "make bench's check wants the tools it has yet to build: $out"
expect_error 1 "$t/none missing; run 'make tools'" -- bench SP_SCHBENCH="$t/none" SETS=schbench-2
untouched "no sp-schbench"

out=$(bench SETS=pipe-pair 2>&1) || fail "HOST=1 make bench failed: $out"
d=$(find "$t/results" -mindepth 1 -maxdepth 1 -name '*-host-bench')
[ -n "$d" ] || fail "no results/<time>-host-bench: $(ls "$t/results")"
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "features not restored: $(cat "$dbg/sched/features")"
[ "$(cat "$t/procsys/kernel/sched_schedstats")" = 0 ] || fail "schedstats not restored"
printf '%s\n' "cpus 2" "vendor AuthenticAMD family 25" "node0 0-1" "llc 0-1" "smt 0" "smt 1" "domains MC" >"$t/want"
diff "$t/want" "$d/host/topology" >&2 || fail "host/topology is not the fake tree's"
grep -q '^== pipe-pair: SELECT_BIAS_PREV on top of UTIL_FITS_CAPACITY' "$d/report.txt" || fail "no section: $(cat "$d/report.txt")"
grep -q '^Amean ctxsw ' "$d/report.txt" || fail "no table: $(cat "$d/report.txt")"
grep -q '^  LLCs     0-1$' "$d/report.txt" || fail "no topology in the report: $(cat "$d/report.txt")"
for f in pipe-pair.raw pipe-pair.csv pipe-pair.png results.json; do
	[ -s "$d/sets/$f" ] || fail "no sets/$f: $(ls "$d/sets")"
done
[ "$(grep -c '^A ctxsw ' "$d/sets/pipe-pair.raw")" = 2 ] || fail "want 2 runs of A: $(cat "$d/sets/pipe-pair.raw")"
echo "# make bench HOST=1: $(basename "$d"), $(grep -c '"set"' "$d/sets/results.json") rows in results.json, features restored"

# A set that fails after one that completed: the completed one is
# reported, the run fails naming it, and the directory stays .partial.
{ grep -v '^@' "$TOP/bench/sets"; echo 'broken | SIS_SMALL_LLC | - | - | - | a workload that fails | false'; } >"$t/sets"
rm -rf "$t/results"
rc=0
out=$(bench SP_SETS="$t/sets" SETS='pipe broken' 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "a failing set: exit $rc, want 1: $out"
echo "$out" | grep -q 'the runs failed (exit 1) after 1 complete set(s)' || fail "no failure message: $out"
d=$(find "$t/results" -mindepth 1 -maxdepth 1 -name '*-host-bench.partial')
[ -n "$d" ] && grep -q '^== pipe: ' "$d/report.txt" && [ -s "$d/sets/pipe.csv" ] ||
	fail "the completed set is not reported in a .partial directory: $(ls -R "$t/results")"
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "a failed set left the features changed: $(cat "$dbg/sched/features")"
echo "# a set failing after a complete one: exit 1, the complete one reported in $(basename "$d")"

out=$(env REPS=2 FEATURE=SIS_SMALL_LLC WORKLOAD='perf bench sched pipe -l 2000' "$TOP/scripts/main.sh" 2>&1) ||
	fail "HOST=1 make failed: $out"
d=$(find "$t/results" -mindepth 1 -maxdepth 1 -name '*-host-SIS_SMALL_LLC')
[ -n "$d" ] && grep -q '^Amean ctxsw ' "$d/report.txt" && [ -s "$d/sets/ab.csv" ] && [ -s "$d/sets/results.json" ] ||
	fail "HOST=1 make: no complete results: $(ls -R "$t/results")"
grep -q '^Kernel:   the running kernel' "$d/report.txt" || fail "no kernel line: $(cat "$d/report.txt")"
[ "$(cat "$dbg/sched/features")" = "$features" ] || fail "make HOST=1 did not restore the features: $(cat "$dbg/sched/features")"
echo "# make HOST=1: $(basename "$d"); $(grep '^Amean ctxsw' "$d/report.txt")"
