#!/usr/bin/env bash
# One boot of scripts/bench.sh (make bench's driver) for a results record,
# its text copied into the record: what a record's run.sh calls with its
# knobs (docs/results/2026-12-07-calibration-zen3/run.sh, a group of a
# table; docs/results/2026-12-07-sync-ladder-zen3/run.sh, its one run).
#   scripts/record-run.sh [-g GROUP] [-t TOOLS] [-v] [-f KNOB]... OUT TMPNAME [KNOB...]
# OUT is the directory the run writes, refused if it exists (a run is never
# overwritten); so are a missing kernel (build/kbuild-vm), a tool of TOOLS
# (build/bin/NAME, e.g. -t 'stats sp-stream') and, with a knob LEDGER=1,
# the ledger (build/ledger/libledger.so, build/bin/sp-mark), all before
# anything boots. Only the knobs reach bench.sh, none of its variables
# from the caller's shell: each -f KNOB (the record's, in order), then
# each KNOB (the group's or the run's). The whole results directory stays
# in a new ${TMPDIR:-/tmp}/TMPNAME.XXXXXX, outside the repository; into
# OUT go report.txt, results.json, each set's .raw, .meta, .csv and, with
# the ledger, .ledger (the runs' window labels), the machine file, the
# guest's topology and clock, with the ledger ledger.conf and the plugin's
# window lines (ledger.txt.xz); make.err, bench.sh's stderr with the host's
# time (s) on each line; with -v host.vmstat.xz (the host every 5 s, xz'd
# after the run); and summary, the last line printed:
#   rc=RC wall_s=S head=MAIN kernel=BUILD_LINUX results=DIR
# or with -g, the group's run:
#   group=GROUP rc=RC wall_s=S start=T0 end=T1 head=MAIN kernel=BUILD_LINUX results=DIR knobs=KNOB...
# Exits with bench.sh's status; 1 on a refusal.
set -u
usage="usage: scripts/record-run.sh [-g GROUP] [-t TOOLS] [-v] [-f KNOB]... OUT TMPNAME [KNOB...]"
top=$(cd "$(dirname "$0")/.." && pwd)
group='' tools='' vmstat=0 fixed=()
while getopts "g:t:vf:" o; do
	case $o in
	g) group=$OPTARG ;;
	t) tools=$OPTARG ;;
	v) vmstat=1 ;;
	f) fixed+=("$OPTARG") ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
out=$1 tmpname=$2
shift 2
knobs=("$@")
if [ -e "$out" ]; then
	if [ -n "$group" ]; then
		echo "error: $out exists: a group runs once; move it away to run it again" >&2
	else
		echo "error: $out exists: move it away to run again" >&2
	fi
	exit 1
fi
cd "$top" || exit 1
# The prerequisites, before anything boots (bench.sh checks the rest).
[ -f build/kbuild-vm/arch/x86/boot/bzImage ] || { echo "error: no kernel; run 'make kernel' first" >&2; exit 1; }
for t in $tools; do
	[ -x "build/bin/$t" ] || { echo "error: build/bin/$t missing; run 'make tools'" >&2; exit 1; }
done
case " ${fixed[*]} ${knobs[*]} " in
*" LEDGER=1 "*) { [ -f build/ledger/libledger.so ] && [ -x build/bin/sp-mark ]; } ||
	{ echo "error: the ledger is not built; run 'make ledger'" >&2; exit 1; } ;;
esac
mkdir -p "$out"
res=$(mktemp -d "${TMPDIR:-/tmp}/$tmpname.XXXXXX")
vm=''
if [ "$vmstat" = 1 ]; then
	vmstat -n 5 >"$out/host.vmstat" &
	vm=$!
fi
start=$(date +%s)
env -u HB_LOOPS -u PIPE_LOOPS -u LAT_SECS -u TBENCH_SECS -u SCHBENCH_SECS -u MSG_LOOPS -u STREAM_MIB \
	-u SCHED_LAT -u LEDGER -u LEDGER_CONF -u ICOUNT -u SETS -u REPS -u HOST -u BENCH_KERNEL -u IDLE_MAX_PCT \
	-u SP_INLINE_FEATURE -u SP_INLINE_WORKLOAD \
	"${fixed[@]}" "${knobs[@]}" SP_RESULTS="$res" scripts/bench.sh >"$res/bench.out" \
	2> >(while IFS= read -r l; do printf '%s %s\n' "$(date +%s)" "$l"; done >"$out/make.err")
rc=$?
end=$(date +%s)
if [ -n "$vm" ]; then
	kill "$vm"
	wait "$vm" 2>/dev/null
	xz -9e -T1 "$out/host.vmstat"
fi
# The text of the run, into the record: the one results directory under
# $res (complete, or .partial if a set failed or the guest timed out).
d=$(find "$res" -mindepth 1 -maxdepth 1 -type d | head -n 1)
if [ -n "$d" ]; then
	for f in report.txt sets/results.json sets/machine vm/topology vm/clock vm/ledger.conf; do
		[ ! -f "$d/$f" ] || cp "$d/$f" "$out/"
	done
	for f in "$d"/sets/*.raw "$d"/sets/*.meta "$d"/sets/*.csv "$d"/sets/*.ledger; do
		[ ! -f "$f" ] || cp "$f" "$out/"
	done
	[ ! -f "$d/vm/ledger.txt" ] || xz -9e -T1 <"$d/vm/ledger.txt" >"$out/ledger.txt.xz"
fi
kernel=$(git -C build/linux log -1 --format=%h 2>/dev/null || echo unknown)
if [ -n "$group" ]; then
	echo "group=$group rc=$rc wall_s=$((end - start)) start=$start end=$end head=$(git rev-parse --short HEAD)" \
		"kernel=$kernel results=${d:-none} knobs=${knobs[*]}"
else
	echo "rc=$rc wall_s=$((end - start)) head=$(git rev-parse --short HEAD) kernel=$kernel results=${d:-none}"
fi | tee "$out/summary"
exit "$rc"
