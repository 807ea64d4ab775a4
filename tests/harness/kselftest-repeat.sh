#!/usr/bin/env bash
# check: quick, budget 60 s
# Bad input to scripts/kselftest-repeat.sh (make kselftest-repeat), caught
# before any boot: a bad run count, an unknown preset, an unknown test named
# to run or to leave out, a test named twice, every test left out, a test
# in two programs, an install whose programs list no test, no VM kernel.
# Each names the fix, and none leaves a results directory. A stand-in
# kselftest install (KS_DIR: kselftest-list.txt and two programs that
# print the harness's -l table) lists the tests, so no kernel tree is
# needed.
. "$(dirname "$0")/../lib.sh"
R=$TOP/scripts/kselftest-repeat.sh
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
# fake_prog DIR NAME TEST...: a program whose -l prints the harness's table.
fake_prog() {
	local d=$1 n=$2
	shift 2
	mkdir -p "$d/sched/placement"
	{
		echo '#!/bin/sh'
		echo '[ "$1" = -l ] || exit 0'
		printf 'printf "%%-20s %%-25s %%s\\n" "# FIXTURE" VARIANT TEST >&2\n'
		printf 'printf "%%-20s %%-25s %%s\\n" global "" "" >&2\n'
		echo 'echo -------------------------------------------------------------------------------- >&2'
		local first=placement
		for x in "$@"; do
			printf 'printf "%%-20s %%-25s %%s\\n" "%s" "" "%s" >&2\n' "$first" "$x"
			first=
		done
	} >"$d/sched/placement/$n"
	chmod +x "$d/sched/placement/$n"
	echo "sched/placement:$n" >>"$d/kselftest-list.txt"
}
fake_prog "$t/ks" one_test a_test
fake_prog "$t/ks" two_test b_test
export KS_DIR=$t/ks SP_RESULTS=$t/results BUILD=$t/build
mkdir -p "$BUILD/kbuild-vm/arch/x86/boot"
expect_error 1 "-n 0: the number of runs must be a positive integer" -- "$R" -n 0
expect_error 1 "-n x: the number of runs" -- "$R" -n x
expect_error 2 "unknown preset 'epyc9'; known presets: .*zen3" -- "$R" -p epyc9
expect_error 1 "unknown test 'c_test'; the kselftests have: a_test b_test" -- "$R" a_test c_test
expect_error 1 "-x c_test: unknown test; the kselftests have: a_test b_test" -- "$R" -x c_test
expect_error 1 "no test left to run" -- "$R" -x a_test -x b_test
expect_error 1 "no test left to run" -- "$R" -x b_test b_test
expect_error 1 "test 'a_test' named twice" -- "$R" a_test b_test a_test
expect_error 1 "no VM kernel at .*; run 'make kernel'" -- "$R" -x a_test
fake_prog "$t/empty" none_test
KS_DIR=$t/empty expect_error 1 "kselftest-list.txt list no test" -- "$R"
fake_prog "$t/twice" one_test a_test
fake_prog "$t/twice" two_test a_test
KS_DIR=$t/twice expect_error 1 "test 'a_test' is in both sched/placement/two_test and sched/placement/one_test" -- "$R"
KS_DIR=$t/nowhere expect_error 1 "has no kselftest-list.txt" -- "$R"
[ ! -e "$SP_RESULTS" ] || fail "bad input left a results directory: $(ls "$SP_RESULTS")"
# guest-repeat.sh, the loop the guest runs, on the host with a stand-in:
# a test past its limit is killed and its run counted not ok (rc 124, no
# verdict), the others pass, and the summary ends with done.
mkdir -p "$t/slow/p"
cat >"$t/slow/p/prog" <<'SH'
#!/bin/sh
[ "$2" = slow_test ] && sleep 30
echo "ok 1 placement.$2"
SH
chmod +x "$t/slow/p/prog"
mkdir "$t/out"
"$TOP/scripts/guest-repeat.sh" "$t/slow" "$t/out" 1 p/prog:a_test=5 p/prog:slow_test=1 2>/dev/null
grep -qx 'run 1 a_test rc=0 verdict=\[ok\] secs=[0-9]* elapsed=[0-9]*' "$t/out/summary" ||
	fail "a_test not ok in: $(cat "$t/out/summary")"
grep -qx 'run 1 slow_test rc=124 verdict=\[none\] secs=[1-5] elapsed=[0-9]*' "$t/out/summary" ||
	fail "slow_test (30 s) not killed within 5 s of its 1 s limit: $(cat "$t/out/summary")"
[ "$(tail -n1 "$t/out/summary")" = done ] || fail "summary does not end with done"
rc=0
"$TOP/scripts/kselftest-tally.sh" "$t/out/summary" >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "a killed test tallied with exit $rc, want 1"
echo "# a test past its limit (1 s, of a 30 s sleep): killed, counted not ok"
