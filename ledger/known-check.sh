#!/usr/bin/env bash
# known-check.sh LEDGER.TXT KNOWN.MAP: the ledger's windows of
# ledger/known.sh against what each load must cost, within TOL percent
# (default 20). A move that changes core costs one L2 miss a line, served
# from the class of the distance moved; what else the window holds (the
# kernel, the tools' start) is taken out by subtracting the pinned window.
# A move to the SMT sibling changes no core (L1d and L2 are the core's):
# no extra misses. The streams: the buffer's first write follows each
# page's zeroing by the kernel at its fault, line for line, so it hits
# L1, and the zeroing misses to local memory (the pages are CPU 0's
# node's); then 16 MiB (in one L3, not an L2) misses L2 and hits L3 on
# each pass, and 64 MiB (in no cache) misses to local memory on each pass.
# Prints a line per case and exits 1 if any is outside TOL.
set -euo pipefail
[ $# = 2 ] && [ -s "$1" ] && [ -s "$2" ] || { echo "usage: known-check.sh LEDGER.TXT KNOWN.MAP (both non-empty)" >&2; exit 2; }
awk -v tol="${TOL:-20}" '
FNR == NR {
	delete f
	for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
	for (k in f) if (k !~ /\./) w[f["label"], k] = f[k]
	have[f["label"]] = 1
	next
}
{
	if (!($1 in have)) { printf "error: window %s (%s) is not in the ledger\n", $1, $2; bad = 1; next }
	lab[$2] = $1; kib[$2] = $5; passes[$2] = $6
}
# check CASE METRIC GOT WANT SCALE: |GOT - WANT| <= tol% of SCALE.
function check(c, m, got, want, scale,   ok) {
	ok = (got - want <= scale * tol / 100 && want - got <= scale * tol / 100)
	printf "%-12s %-11s %12d  want %12d +- %9d  %s\n", c, m, got, want, scale * tol / 100, ok ? "ok" : "FAIL"
	if (!ok) bad = 1
}
function val(c, m) { return w[lab[c], m] + 0 }
END {
	if (bad) exit 1
	for (c in lab) if (c != "warmup" && c != "pinned" && !("pinned" in lab)) { print "error: no pinned window"; exit 1 }
	n = split("smt llc node remote", cs, " ")
	cls["llc"] = "c2c_llc"; cls["node"] = "c2c_node"; cls["remote"] = "c2c_remote"
	for (i = 1; i <= n; i++) {
		c = cs[i]
		if (!(c in lab)) continue
		moves = passes[c] * kib[c] * 16
		check(c, "l2_miss", val(c, "l2_miss") - val("pinned", "l2_miss"), c == "smt" ? 0 : moves, moves)
		if (c != "smt")
			check(c, cls[c], val(c, cls[c]) - val("pinned", cls[c]), moves, moves)
	}
	if ("stream-l3" in lab) {
		lines = kib["stream-l3"] * 16
		check("stream-l3", "l3", val("stream-l3", "l3"), passes["stream-l3"] * lines, passes["stream-l3"] * lines)
		check("stream-l3", "dram_local", val("stream-l3", "dram_local"), lines, lines)
	}
	if ("stream-dram" in lab) {
		lines = kib["stream-dram"] * 16
		want = (passes["stream-dram"] + 1) * lines
		check("stream-dram", "dram_local", val("stream-dram", "dram_local"), want, want)
		check("stream-dram", "dram_remote", val("stream-dram", "dram_remote"), 0, want)
	}
	exit bad
}' "$1" "$2"
