#!/usr/bin/env bash
# check: full, budget 1200 s
# Host mode end to end, as on a lab machine, inside a guest: the series
# kernel boots 2s4llc, the guest clones this repository (its committed
# HEAD) into /tmp and runs `make bench HOST=1` of one small set there. It
# builds its tools, writes a complete record (report.txt with the
# machine's record and the set's table, the wakeup latency rows host mode
# adds, results.json) and leaves the features file as it found it. On the
# base kernel the same command is refused before anything is built, and
# the message names the missing switches.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib/kbuild.sh"
t=$(mktemp -d); cleanup_on_exit 'rm -rf "$t"'
F=/sys/kernel/debug/sched/features
# host_run DIR [vm.sh ARGS]: the clone and make bench HOST=1 in a guest,
# its output, exit status, features before and after, build/bin and
# results/ in DIR.
host_run() {
	local d=$1
	shift
	mkdir -p "$d"
	"$TOP/scripts/vm.sh" -p 2s4llc -t 900 -w "$d" "$@" -- sh -c "
		mount -t debugfs none /sys/kernel/debug 2>/dev/null; cat $F > $d/before
		git clone -q $TOP /tmp/c || exit 1
		cd /tmp/c && make bench HOST=1 SETS=both-g1 REPS=2 HB_LOOPS=50 > $d/out 2>&1; echo \$? > $d/rc
		cat $F > $d/after
		ls build/bin > $d/bin 2>/dev/null
		cp -r results $d/results 2>/dev/null; true" >"$d/vm.out" 2>&1 ||
		fail "the guest failed: $(tail -n 20 "$d/vm.out")"
}

host_run "$t/series"
s=$t/series
[ "$(cat "$s/rc")" = 0 ] || fail "make bench HOST=1 exit $(cat "$s/rc"): $(tail -n 30 "$s/out")"
cmp -s "$s/before" "$s/after" || fail "features not restored: before $(cat "$s/before"), after $(cat "$s/after")"
r=$(ls -d "$s"/results/*-host-bench 2>/dev/null | head -n1)
[ -n "$r" ] || fail "no complete results/*-host-bench: $(ls "$s/results" 2>&1)"
for f in report.txt sets/results.json sets/machine sets/both-g1.raw sets/both-g1.meta host/topology; do
	[ -s "$r/$f" ] || fail "record without $f: $(ls -R "$r")"
done
grep -q '^Machine: ' "$r/report.txt" || fail "no machine record in report.txt: $(cat "$r/report.txt")"
for m in migrations mig_llc wakelat_p99_us; do
	grep -q "^Amean $m " "$r/report.txt" || fail "no $m row in report.txt: $(cat "$r/report.txt")"
done
sed -n '/^== both-g1/,/^(n=/p' "$r/report.txt" | sed 's/^/# /'

base=$(base_kernel) || fail "no base kernel"
host_run "$t/base" -k "$base"
b=$t/base
[ "$(cat "$b/rc")" != 0 ] || fail "make bench HOST=1 ran on the base kernel: $(tail -n 20 "$b/out")"
grep -q "lacks the series' switches:.*UTIL_FITS_CAPACITY" "$b/out" || fail "refusal does not name the switches: $(cat "$b/out")"
[ ! -s "$b/bin" ] || fail "the refused run built $(xargs <"$b/bin")"
[ ! -d "$b/results" ] || fail "the refused run left results: $(ls -R "$b/results")"
cmp -s "$b/before" "$b/after" || fail "the refused run changed the features file"
echo "# base kernel: $(grep -m1 'lacks' "$b/out")"
