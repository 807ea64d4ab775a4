#!/usr/bin/env bash
# check: quick, budget 30 s
# scripts/record-run.sh's copy into a record, no QEMU: a stand-in for
# bench.sh writes one results directory; the record gets its text and the
# ledger's window lines as ledger.txt.xz (xz -dc gives them back byte for
# byte), never the plain or gzip'd file; with -v, host.vmstat.xz. An OUT
# that exists is refused.
. "$(dirname "$0")/../lib.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
top=$t/top
mkdir -p "$top/scripts" "$top/build/kbuild-vm/arch/x86/boot" "$top/build/ledger" "$top/build/bin" "$t/tmp"
cp "$TOP/scripts/record-run.sh" "$top/scripts/"
: >"$top/build/kbuild-vm/arch/x86/boot/bzImage"
: >"$top/build/ledger/libledger.so"
printf '#!/bin/sh\n' >"$top/build/bin/sp-mark"
chmod +x "$top/build/bin/sp-mark"
cat >"$top/scripts/bench.sh" <<'SH'
#!/bin/sh
d=$SP_RESULTS/run1
mkdir -p "$d/sets" "$d/vm"
echo "report LEDGER=$LEDGER" >"$d/report.txt"
echo "A x 1" >"$d/sets/one.raw"
echo "2 A" >"$d/sets/one.ledger"
echo ok >"$d/vm/ledger.conf"
for i in 0 1 2 3; do echo "window=$((i + 1)) label=$i insns=$((i * 1000))"; done >"$d/vm/ledger.txt"
SH
chmod +x "$top/scripts/bench.sh"
git -C "$top" init -q && git -C "$top" -c user.name=t -c user.email=t@t commit -q --allow-empty -m t ||
	fail "git init of the stand-in tree failed"
want=$(for i in 0 1 2 3; do echo "window=$((i + 1)) label=$i insns=$((i * 1000))"; done)

TMPDIR=$t/tmp "$top/scripts/record-run.sh" -v "$t/out" rr LEDGER=1 >"$t/stdout" 2>"$t/err" ||
	fail "record-run.sh failed on a complete run: $(cat "$t/err" "$t/stdout")"
grep -q '^rc=0 ' "$t/out/summary" || fail "summary lacks rc=0: $(cat "$t/out/summary")"
for f in report.txt one.raw one.ledger ledger.conf; do
	[ -f "$t/out/$f" ] || fail "the record lacks $f: $(ls "$t/out")"
done
[ -f "$t/out/ledger.txt.xz" ] || fail "the record lacks ledger.txt.xz: $(ls "$t/out")"
[ "$(xz -dc "$t/out/ledger.txt.xz")" = "$want" ] || fail "xz -dc ledger.txt.xz is not the plugin's window lines"
for f in ledger.txt ledger.txt.gz; do
	[ ! -e "$t/out/$f" ] || fail "the record has $f beside ledger.txt.xz"
done
[ ! -e "$t/out/host.vmstat" ] && xz -t "$t/out/host.vmstat.xz" 2>/dev/null ||
	fail "with -v the record wants host.vmstat.xz alone: $(ls "$t/out")"
echo "# record-run.sh: the window lines come back from ledger.txt.xz byte for byte; host.vmstat.xz"
TMPDIR=$t/tmp expect_error 1 "exists: move it away" -- "$top/scripts/record-run.sh" "$t/out" rr
