#!/usr/bin/env bash
# check: quick, budget 60 s
# vm_run (scripts/lib/vm-run.sh), which stress, bench and the main job run
# the VM with: a SIGTERM or SIGINT to the calling script alone, not its process
# group, stops vm.sh (and so the guest) before the script dies of it. A fake
# vm.sh stands in (VM_SH): it prints a line, then waits, and notes the
# signal it gets. Before vm_run, stress.sh ran `vm.sh | tee` in the
# foreground, deferring its trap, and a SIGTERM to it left the guest running.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib/vm-run.sh"
t=$(mktemp -d)
cleanup_on_exit 'rm -rf "$t"'
cat >"$t/vm.sh" <<'EOS'
#!/usr/bin/env bash
trap 'echo "TERM $*" >"$STOPPED"; exit 143' TERM
echo "guest output $*"
while :; do sleep 0.1; done
EOS
chmod +x "$t/vm.sh"
cat >"$t/caller.sh" <<EOS
#!/usr/bin/env bash
set -euo pipefail
. "$TOP/scripts/lib.sh"
. "$TOP/scripts/lib/vm-run.sh"
echo \$\$ >"$t/caller.pid"
rc=0
vm_run -t "$t/out" -p x -- cmd || rc=\$?
echo "caller went on after vm_run: \$rc"
EOS
for sig in TERM INT; do
	rm -f "$t/stopped" "$t/out" "$t/caller.pid"
	# A background job starts with SIGINT ignored, which a shell cannot undo.
	STOPPED=$t/stopped VM_SH=$t/vm.sh TMPDIR=$t env --default-signal=INT bash "$t/caller.sh" >"$t/stdout" 2>&1 &
	job=$!
	wait_until 10 "$job" test -s "$t/out" || fail "$sig: the fake guest's output never reached OUT"
	kill -s "$sig" "$(cat "$t/caller.pid")"
	rc=0
	wait "$job" || rc=$?
	[ "$rc" = $((128 + $(kill -l $sig))) ] || fail "$sig: the caller exited $rc, not of the signal: $(cat "$t/stdout")"
	[ "$(cat "$t/stopped" 2>/dev/null)" = "TERM -p x -- cmd" ] || fail "$sig: vm.sh was not stopped with SIGTERM"
	grep -q 'went on' "$t/stdout" && fail "$sig: the caller went on after the signal"
	grep -qx 'guest output -p x -- cmd' "$t/stdout" || fail "$sig: -t did not copy the output: $(cat "$t/stdout")"
	pgrep -f "$t/vm.sh" >/dev/null && fail "$sig: the fake vm.sh is still running"
	[ -z "$(find "$t" -name 'sp-vm-out.*')" ] || fail "$sig: the output FIFO was left behind"
	echo "# SIG$sig to the caller: vm.sh stopped, caller died of SIG$sig"
done
# The caller's own trap still runs (after the guest is stopped).
awk -v line="trap 'echo cleaned >$t/cleaned; exit 9' TERM" '/^rc=0$/ { print line } { print }' \
	"$t/caller.sh" >"$t/caller2.sh"
rm -f "$t/stopped" "$t/out" "$t/caller.pid"
STOPPED=$t/stopped VM_SH=$t/vm.sh TMPDIR=$t bash "$t/caller2.sh" >"$t/stdout" 2>&1 &
job=$!
wait_until 10 "$job" test -s "$t/out" || fail "trap: the fake guest's output never reached OUT"
kill -TERM "$(cat "$t/caller.pid")"
rc=0
wait "$job" || rc=$?
[ "$rc" = 9 ] && [ "$(cat "$t/cleaned" 2>/dev/null)" = cleaned ] || fail "the caller's TERM trap did not run (exit $rc)"
[ -s "$t/stopped" ] || fail "trap: vm.sh was not stopped"
echo "# the caller's own trap ran after vm.sh was stopped"
# OUT that cannot be written: an error at once, not a reader-less FIFO.
rc=0
( . "$TOP/scripts/lib.sh"; . "$TOP/scripts/lib/vm-run.sh"; VM_SH=$t/vm.sh TMPDIR=$t vm_run "$t/no/such/dir/out" a ) 2>/dev/null || rc=$?
[ "$rc" = 1 ] || fail "vm_run with an unwritable OUT returned $rc"
[ -z "$(find "$t" -name 'sp-vm-out.*')" ] || fail "vm_run with an unwritable OUT left its FIFO"
# Normal end: vm.sh's status is returned, OUT has its output.
printf '#!/bin/sh\necho done\nexit 7\n' >"$t/vm.sh"
rc=0
( . "$TOP/scripts/lib.sh"; . "$TOP/scripts/lib/vm-run.sh"; VM_SH=$t/vm.sh TMPDIR=$t vm_run "$t/out" a ) || rc=$?
{ [ "$rc" = 7 ] && [ "$(cat "$t/out")" = 'done' ]; } || fail "vm_run returned $rc with OUT '$(cat "$t/out")'"
# Every script that boots a guest does it through vm_run: outside comments,
# no script of scripts/, scripts/lib/ or bench/ but lib/vm-run.sh (vm_run)
# and vm.sh itself names vm.sh, however it spells the path.
direct=$(grep -lE '^[^#]*vm\.sh' "$TOP"/scripts/{,lib/}*.sh "$TOP"/bench/*.sh |
	grep -vE '/scripts/(lib/vm-run|vm)\.sh$' || true)
[ -z "$direct" ] || fail "these scripts start vm.sh themselves, not through vm_run: $direct"
echo "# every script under scripts/ and bench/ boots its guest through vm_run"
exit 0
