#!/usr/bin/env bash
# Boot a kernel under virtme-ng on a topology preset, run one command inside,
# and return its stdout, stderr and exit status as our own.
#
#   vm.sh [-p PRESET] [-k BZIMAGE] [-t TIMEOUT] [-a "KERNEL ARGS"] [-c BOOT_CPUS]
#         [-w DIR]... -- CMD [ARG...]
#
# The host root is the guest's, read-only; -w DIR makes DIR writable from the guest.
# -c N boots with N of the preset's CPUs (maxcpus=N); the guest brings the
# others online before the topology check and the command (see below).
#
# This is the only file that knows about vng and QEMU; replacing vng with plain
# QEMU must touch nothing else.
#
# The command's output does not come from the console: the guest writes it,
# with its exit status and dmesg, into a run directory shared read-write over
# 9p. The console goes to a log that is only scanned for splats. Before the
# command runs, the guest checks its topology against the preset; a mismatch
# fails with status 97 and the command does not run.
#
# Exit status: the command's; 97 topology mismatch; 98 splat on the console;
# 99 guest panicked, hung (timeout) or never ran the command; 2 bad usage.
# ACCEL=kvm|tcg forces the accelerator; otherwise a cached probe decides.
# ICOUNT=off|SHIFT: the guest's clock under TCG (below); its default is
# ICOUNT_DEFAULT of lib.sh, or the caller's VM_ICOUNT_DEFAULT. The run
# directory's `clock` names the one used.
# LEDGER=1 [LEDGER_CONF=FILE]: the cache ledger, its windows in the run
# directory's ledger.txt (below).
# VM_KEEP=DIR keeps the run directory (console.log, dmesg, topology) in DIR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

preset=$(preset_default small)
kernel=$BUILD/kbuild-vm/arch/x86/boot/bzImage
timeout=${VM_TIMEOUT:-300}
append=""
boot_cpus=""
rw=()
usage() {
	echo "usage: vm.sh [-p PRESET] [-k BZIMAGE] [-t SECONDS] [-a KERNEL_ARGS] [-c BOOT_CPUS] [-w DIR]... -- CMD [ARG...]" >&2
	exit 2
}
while getopts "p:k:t:a:c:w:h" o; do
	case $o in
	p) preset=$OPTARG ;;
	k) kernel=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) append=$OPTARG ;;
	c) boot_cpus=$OPTARG ;;
	w) rw+=(--rwdir "$(realpath "$OPTARG")") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage

# Topology from the preset; the clock (below).
need_preset "$preset"
# VM_ICOUNT_DEFAULT: a caller's own default (bench.sh's AB_ICOUNT_DEFAULT).
icount_default=${VM_ICOUNT_DEFAULT:-$ICOUNT_DEFAULT}
icount=${ICOUNT:-$icount_default}
need_icount "$icount"
# LEDGER=1: QEMU loads the cache ledger (ledger/README.md), which models
# the guest's caches inside the windows that sp-mark opens and writes a
# line per window to the run directory's ledger.txt. Its cost would move
# a guest on the host's clock, so it runs on icount: shift 0 unless
# ICOUNT says another; ICOUNT=off is refused.
need_ledger
ledger=${LEDGER:-0}
if [ "$ledger" = 1 ]; then
	[ -n "${ICOUNT:-}" ] || icount=0
	ledger_so=$BUILD/ledger/libledger.so
	ledger_conf=$(realpath -m "${LEDGER_CONF:-$TOP/ledger/zen3.conf}")
	[ -f "$ledger_so" ] && [ -x "$BUILD/ledger/test-model" ] || die "LEDGER=1: the ledger is not built; run 'make ledger'"
	"$BUILD/ledger/test-model" --conf "$ledger_conf" ||
		die "LEDGER=1: the machine file $ledger_conf is refused (above); fix it or give LEDGER_CONF=FILE"
fi
read -r sockets dies cores threads cpu < <(preset_get "$preset")
cpu=${VM_CPU:-${cpu:-intel}}
case $cpu in
intel | amd) ;;
*) die "VM_CPU=$cpu: use VM_CPU=intel or VM_CPU=amd" ;;
esac
ncpu=$((sockets * dies * cores * threads))
per_node=$((ncpu / sockets))
[ -z "$boot_cpus" ] || { [[ $boot_cpus =~ ^[1-9][0-9]*$ ]] && ((boot_cpus <= ncpu)); } ||
	die "-c $boot_cpus: give the CPUs to boot with, 1 to $ncpu ($preset has $ncpu)"
QEMU_BIN=${QEMU_BIN:-qemu-system-x86_64}
command -v "$QEMU_BIN" >/dev/null || die "QEMU ($QEMU_BIN) not found; run 'make deps' (installs qemu-system-x86)"
command -v vng >/dev/null || die "vng (virtme-ng) not found; run 'make deps'"
[ "$ledger" = 0 ] || nm -D "$(command -v "$QEMU_BIN")" 2>/dev/null | grep -w qemu_plugin_register_vcpu_mem_cb >/dev/null ||
	die "LEDGER=1: $QEMU_BIN has no plugin support (built without --enable-plugins); use Debian's qemu-system-x86 (make deps)"
[ -f "$kernel" ] || die "no kernel at $kernel; run 'make kernel' first"

per_llc=$((cores * threads))

expected() {
	local i
	echo "cpus $ncpu"
	echo "vendor $vendor family $family"
	for ((i = 0; i < sockets; i++)); do
		echo "node$i $((i * per_node))-$((i * per_node + per_node - 1))"
	done
	for ((i = 0; i < ncpu; i += per_llc)); do echo "llc $i-$((i + per_llc - 1))"; done
	for ((i = 0; i < ncpu; i += threads)); do
		[ "$threads" -gt 1 ] && echo "smt $i-$((i + threads - 1))" || echo "smt $i"
	done
	local dom=""
	[ "$threads" -gt 1 ] && dom="SMT "
	[ "$per_llc" -gt "$threads" ] && dom="${dom}MC "
	[ "$dies" -gt 1 ] && dom="${dom}PKG "
	[ "$sockets" -gt 1 ] && dom="${dom}NUMA "
	echo "domains ${dom% }"
}

# KVM opens on some hosts but the guest hangs after the BIOS; so a short probe
# boot decides, and its answer is cached per host kernel and QEMU version.
qemu_opts=()
vng_opts=(--cpus "$ncpu,sockets=$sockets,dies=$dies,cores=$cores,threads=$threads"
	--memory $((sockets))G)
for ((i = 0; i < sockets; i++)); do
	# 1G a node: the ledger's node_mb=1024 (below).
	vng_opts+=(--numa "1G,cpus=$((i * per_node))-$((i * per_node + per_node - 1))")
done

probe_kvm() {
	[ -w /dev/kvm ] || { echo tcg; return; }
	local key f
	key=$( (uname -r; "$QEMU_BIN" --version | head -n1) | sha256sum | cut -c1-12)
	f=$CACHE/kvm-probe-$key
	if [ ! -f "$f" ]; then
		mkdir -p "$CACHE"
		if timeout 60 vng --run "$kernel" --qemu "$(command -v "$QEMU_BIN")" --cpus 2 --memory 1G \
			--append "root=/dev/root" --exec true >/dev/null 2>&1 </dev/null; then
			echo kvm >"$f.tmp"
		else
			echo tcg >"$f.tmp"
		fi
		mv "$f.tmp" "$f"
	fi
	cat "$f"
}
# QEMU's AMD models lose topoext under TCG, and with it the per-CCX L3 of
# CPUID 0x8000001D. x-force-features keeps it; every other feature TCG cannot
# provide must then be turned off by hand (forcing INVPCID on kills the guest
# with a #UD in native_flush_tlb_global()). Which ones those are depends on the
# QEMU version, so ask this QEMU: it warns once per feature it cannot emulate.
# The answer is cached per QEMU version.
tcg_lacks() {
	local model=$1 key f
	key=$("$QEMU_BIN" --version | head -n1 | sha256sum | cut -c1-12)
	f=$CACHE/tcg-lacks-$model-$key
	if [ ! -f "$f" ]; then
		mkdir -p "$CACHE"
		# Cached only when QEMU started and quit cleanly: a probe that
		# failed says nothing about the features.
		local out
		out=$(echo quit | timeout 30 "$QEMU_BIN" -accel tcg -cpu "$model" -display none \
			-nodefaults -S -monitor stdio 2>&1 >/dev/null) ||
			die "probing $QEMU_BIN -cpu $model under TCG failed: $out"
		echo "$out" | sed -n "s/.*TCG doesn't support requested feature: [^.]*\.[^.]*\.\([a-z0-9_-]*\) .*/\1/p" \
			>"$f.tmp"
		mv "$f.tmp" "$f"
	fi
	cat "$f"
}
amd_model=EPYC-Milan
if [ "$cpu" = amd ]; then
	"$QEMU_BIN" -cpu help | grep -qw "$amd_model" ||
		die "this QEMU has no $amd_model CPU model; use VM_CPU=intel, or a QEMU >= 6.0"
fi
accel=${ACCEL:-$(probe_kvm)}
case $accel-$cpu in
kvm-intel) qemu_opts+=(-cpu host) ;;
kvm-amd) qemu_opts+=(-cpu "$amd_model") ;;
# The Intel model reports one L3 per die, which gives several LLCs per socket.
tcg-intel) qemu_opts+=(-cpu Skylake-Server) ;;
tcg-amd)
	lacks=$(tcg_lacks "$amd_model" | grep -vx topoext | sed 's/^/-/' | paste -sd, -)
	qemu_opts+=(-cpu "$amd_model,x-force-features=on${lacks:+,$lacks}")
	;;
*) die "ACCEL=$accel: use ACCEL=kvm or ACCEL=tcg" ;;
esac
# TCG runs single-threaded: multi-threaded TCG lets other vCPUs run through a
# jump label while text_poke_bp() is still patching it, and the guest dies
# with an int3 Oops on the first static key flip (seen at boot with
# CONFIG_SCHED_CACHE).
[ "$accel" = tcg ] && qemu_opts+=(-accel tcg,thread=single) && vng_opts+=(--disable-kvm)
# The guest's clock. Under TCG one host thread runs every vCPU in turn. On
# the host's clock (ICOUNT=off), whatever else the host does (a build, a
# second guest, a plugin's cost) stretches the guest's time unevenly. With
# a shift N, QEMU's -icount makes guest time the count of instructions
# executed, 2^N ns each, by whichever vCPU executes them: one clock for all
# vCPUs, one vCPU executing at a time. sleep=off jumps the clock to the next
# timer when every vCPU is idle, rather than waiting on the host. Ticks,
# slices and PELT then run in instructions, and the host's speed and load
# move the schedule only through I/O (9p completes in host time). KVM
# runs on the host's clock: an ICOUNT given there is refused; the default
# falls back to it, saying so.
[ "$ledger" = 0 ] || [ "$accel" = tcg ] || die "LEDGER=1: the ledger is a TCG plugin, and this run uses KVM; use ACCEL=tcg"
if [ "$icount" != off ] && [ "$accel" = kvm ]; then
	[ -z "${ICOUNT:-}" ] || die "ICOUNT=$ICOUNT: icount needs TCG, and this run uses KVM; use ICOUNT=off or ACCEL=tcg"
	note "vm: KVM runs on the host's clock; ICOUNT's default ($icount_default) does not apply"
	icount=off
fi
if [ "$icount" = off ]; then
	clock="wall: guest time follows the host's wall clock, which other load on the host moves"
else
	qemu_opts+=(-icount "shift=$icount,sleep=off")
	clock="icount shift=$icount: guest time = instructions x 2^$icount ns, one clock for all vCPUs, one executing at a time"
fi
# What the guest must report, checked in the guest with the topology.
case $accel-$cpu in
kvm-intel) vendor=$(awk '/^vendor_id/ {print $3; exit}' /proc/cpuinfo)
	family=$(awk '/^cpu family/ {print $4; exit}' /proc/cpuinfo) ;;
*-amd) vendor=AuthenticAMD family=25 ;;
*) vendor=GenuineIntel family=6 ;;
esac
note "vm: $preset ($sockets sockets x $dies LLCs x $cores cores x $threads threads = $ncpu CPUs), $accel, ${qemu_opts[1]%%,*}, clock ${clock%%:*}"

run=$(mktemp -d "${TMPDIR:-/tmp}/sp-vm.XXXXXX")
cleanup() {
	if [ -n "${VM_KEEP:-}" ]; then
		mkdir -p "$VM_KEEP" && cp -a "$run"/. "$VM_KEEP"/
	fi
	rm -rf "$run"
}
trap cleanup EXIT
# stop_guest SIGNAL: stop the guest (if it started), clean up, and die of
# SIGNAL, so that a calling shell sees the signal and stops too. Further
# signals are ignored meanwhile: the guest gets up to 10 s to go.
stop_guest() {
	trap '' INT TERM HUP
	echo "error: interrupted; stopping the guest" >&2
	if [ -n "${guest:-}" ]; then
		kill -TERM "$guest" 2>/dev/null || true
		wait "$guest" 2>/dev/null || true
	fi
	[ -z "${tailer:-}" ] || kill "$tailer" 2>/dev/null || true
	cleanup
	trap - EXIT "$1"
	kill -s "$1" $$
	# Still here: the signal was ignored when we started (a background job).
	exit $((128 + $(kill -l "$1")))
}
expected >"$run/expected"
echo "$clock" >"$run/clock"
# The ledger: QEMU loads the plugin, and the machine file goes with the
# run's record.
if [ "$ledger" = 1 ]; then
	cp "$ledger_conf" "$run/ledger.conf"
	qemu_opts+=(-plugin "$ledger_so,sockets=$sockets,dies=$dies,cores=$cores,threads=$threads,node_mb=1024,cache=$ledger_conf,out=$run/ledger.txt")
fi
: >"$run/stderr"
# -c: the guest brings the CPUs maxcpus= left offline online (guest-run.sh).
if [ -n "$boot_cpus" ] && ((boot_cpus < ncpu)); then
	append="maxcpus=$boot_cpus${append:+ $append}"
	: >"$run/online"
fi
{
	printf 'cd %q 2>/dev/null || cd /\n' "$PWD"
	printf '%q ' "$@"
	echo
} >"$run/cmd"

# no_timer_check: at boot, check_timer() decides whether the PIT reaches the
# IO-APIC by counting jiffies over a busy-wait of a fixed number of TSC
# cycles. Under TCG, with the host busy, the vCPU can burn those cycles before
# four ticks are delivered; the kernel then takes the 8259A fallback paths,
# where one such boot died with an Oops in io_apic_modify_irq(). The kernel
# skips the check itself as a KVM, Hyper-V or VMware guest for this reason;
# under TCG nothing tells it, so we do.
#
# lpj: unless told, each CPU that comes up measures its delay loop over a
# few jiffies. Under TCG, with every vCPU on one host thread, the measure
# mostly fails ("calibrate_delay_direct() failed to get a good estimate")
# and falls back to a slow search; on the debug kernel, the 63 of zen3 took
# 370 s of console time, and the boot ran past stress.sh's limit. The kernel
# suggests lpj= itself. x86 delays by the TSC, so the value feeds only
# BogoMIPS: near the boot CPU's own, the host's clock rate over HZ.
#
# timeout puts vng and QEMU in a process group of their own, which a Ctrl-C
# at the terminal does not reach, and a shell defers its traps until a
# foreground child exits. So the guest runs in the background while we wait,
# and SIGINT, SIGTERM or SIGHUP to us stops it (timeout passes the signal to
# its whole group) before the EXIT trap removes the run directory.
#
# Under icount the guest's TSC counts guest nanoseconds (QEMU's TCG returns
# the icount clock for RDTSC): 1 GHz whatever the shift.
hz=$(sed -n 's/^CONFIG_HZ=//p' "${kernel%/arch/x86/boot/bzImage}/.config" 2>/dev/null || true)
if [ "$icount" = off ]; then
	lpj=$(awk -v hz="${hz:-250}" '/^cpu MHz/ { printf "lpj=%d", $4 * 1000000 / hz; exit }' /proc/cpuinfo)
else
	lpj=lpj=$((1000000000 / ${hz:-250}))
fi
boot() {
	local i
	rc=0 guest= tailer=
	trap 'stop_guest INT' INT
	trap 'stop_guest TERM' TERM
	trap 'stop_guest HUP' HUP
	timeout -k 10 "$timeout" vng --run "$kernel" --qemu "$(command -v "$QEMU_BIN")" "${vng_opts[@]}" \
		--qemu-opts="${qemu_opts[*]}" --rwdir "$run" "${rw[@]}" --verbose \
		--append "root=/dev/root sched_verbose tsc=unstable no_timer_check $lpj $append" \
		--exec "bash $TOP/scripts/guest-run.sh $run" </dev/null >"$run/vng.log" 2>&1 &
	guest=$!
	# The command's stderr (its errors, the progress of long runs) shows
	# while it runs; tail reads the file once more after the guest exits.
	tail -n +1 -F -s 0.5 --pid="$guest" "$run/stderr" >&2 2>/dev/null &
	tailer=$!
	wait "$guest" || rc=$?
	guest=
	# tail sees the guest gone at its next poll (0.5 s), reads the rest and
	# exits. Should the PID have been reused by then, it would follow the
	# file forever: stop it after 5 s, long after that last read.
	for ((i = 0; i < 25; i++)); do
		kill -0 "$tailer" 2>/dev/null || break
		sleep 0.2
	done
	((i < 25)) || kill "$tailer" 2>/dev/null || true
	wait "$tailer" || true
	tailer=
	trap - INT TERM HUP
	# QEMU warns once per CPU feature TCG lacks; drop those so real errors show.
	grep -v "TCG doesn't support requested feature" "$run/vng.log" >"$run/console.log" || true
}
boot

# console-check exits 1 on a splat; anything above that means it could not
# scan (a KCSAN_SCOPE it cannot read), which must not pass as a clean console.
crc=0
splats=$("$TOP/scripts/console-check.sh" -c 60 "$run/console.log" "$run/dmesg") || crc=$?
[ "$crc" -le 1 ] || splats="console-check.sh could not scan the console (exit $crc; its error is above)"
if [ ! -f "$run/rc" ]; then
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "error: guest hung: no result after ${timeout}s (raise -t, or look at the console below)" >&2
	else
		echo "error: guest died before the command finished (vng exit $rc); console tail:" >&2
	fi
	tail -n 30 "$run/console.log" >&2
	exit 99
fi
cat "$run/stdout"
cmd_rc=$(cat "$run/rc")
if [ -n "$splats" ]; then
	echo "error: the guest console shows a splat; failing the run:" >&2
	echo "$splats" >&2
	exit 98
fi
exit "$cmd_rc"
