#!/usr/bin/env python3
"""table.py [--alias SET=CELL]... DIR...: the calibration table (issue 60, item 6).

K Prateek Nayak's run of the original two switches on a 2-socket EPYC Milan
(shared/seeds/000_c6b2de8ac04da907.txt; 2 x 64C/128T = 256 CPUs, 16 LLCs of
16 CPUs, NPS1) against the same switches on zen3 under QEMU TCG (64 CPUs,
4 LLCs of 16), one row per row of his tables that has a zen3 cell here.

Reads every results.json under each DIR (bench/report.sh's: one object per
set, side and metric) and, where a group directory holds make.err (run.sh's
stderr, stamped with the host's time), the host time each set took. Each
set may appear once over all DIRs. --alias SET=CELL reads set SET as cell
CELL (make's set "ab", hackbench -g 8 -f 10 -s 100 -l 500 --threads --pipe,
is cell both-g8).

His rows are quoted below exactly, with their line in the seed mail; his
change and CVs are parsed from the quote. With SEED=FILE (default: the
seed beside this repository, ../shared/seeds/ from its top) each quote is
checked against that line of the mail, and a mismatch is an error.

Per row: his change ("pct imp", + = better with the switches) and his
direction: better or worse where |pct imp| is above both his CVs, else
none (his table gives no test; this rule is ours). Ours: the cell's
throughput or time change (report.sh's change, + = A better), Welch p;
direction where p < 0.05, else n.s. Then the wait per timeslice and the
migrations (change of the mean, + = more), the migrations by distance
(where.awk, mean per run, B -> A), and the ledger's modelled stall
(stall_ms, + = less stall with the switches) where the ledger was on.
Last, for the TCG change and for the ledger, in how many rows the direction
agrees with his. A row counts once per row of his: two of his rows that
map to one cell (netperf 256 and tbench 256) both count.
"""
import glob
import json
import math
import os
import re
import sys

SEED_NAME = "000_c6b2de8ac04da907.txt"

# (his table, his case, seed line, the line exactly, our cell, our metric, how it was scaled)
# Scaling: zen3 has a quarter of his CPUs and of his LLCs, with LLCs of the
# same 16 CPUs, so a quarter of his tasks keeps both the tasks per CPU and the
# tasks per LLC. Where a quarter is below one unit (a client, a worker, a
# group), the smallest count keeps the regime (fewer tasks than LLCs, the
# machine mostly idle) at a higher load, and says so.
SCALES = {
    "Q": "a quarter of his count: his tasks per CPU and per LLC",
    "H": ("half his groups: his tasks per CPU and per LLC if his groups are 20 senders + 20 receivers "
          "(hackbench's and mmtests' default; his mail does not say), ours 10 + 10 (-f 10); if his groups "
          "were as ours, the cell's load is his row of twice the groups"),
    "2x": "nearest: 2x his tasks per CPU (no fraction of a group, client or worker runs)",
    "4x": "nearest: 4x his tasks per CPU (no fraction of a client or worker runs)",
    "T": "tbench (1:1 request/response over loopback TCP) stands in for netperf, which is not installed",
    "P": "perf bench sched pipe (one 1:1 pair over a pipe) stands in for one netperf TCP_RR pair",
    "M": "one message thread assumed (his mail gives the workers only)",
    "S": "sp-stream's triad, 2 threads pinned one per CPU 0 and 32 (stream-N's pinning); his threads are not stated",
}
Q = "Q"
HB = "H"
ROWS = [
    ("hackbench", "1-groups", 1506, " 1-groups     1.00 [ -0.00]( 2.88)     0.97 [  2.88]( 1.78)", "both-g1", "time_s",
     "2x"),
    ("hackbench", "2-groups", 1507, " 2-groups     1.00 [ -0.00]( 2.03)     0.91 [  8.79]( 1.19)", "both-g1", "time_s", HB),
    ("hackbench", "4-groups", 1508, " 4-groups     1.00 [ -0.00]( 1.42)     0.87 [ 13.07]( 1.77)", "both-g2", "time_s", HB),
    ("hackbench", "8-groups", 1509, " 8-groups     1.00 [ -0.00]( 1.37)     0.86 [ 13.70]( 0.98)", "both-g4", "time_s", HB),
    ("hackbench", "16-groups", 1510, "16-groups     1.00 [ -0.00]( 2.54)     0.90 [  9.74]( 1.65)", "both-g8", "time_s", HB),
    ("tbench", "1", 1520, "    1     1.00 [  0.00]( 0.63)     0.99 [ -0.53]( 0.97)", "tbench-1", "tbench_mbps",
     "4x"),
    ("tbench", "2", 1521, "    2     1.00 [  0.00]( 0.89)     1.00 [  0.21]( 0.99)", "tbench-1", "tbench_mbps",
     "2x"),
    ("tbench", "4", 1522, "    4     1.00 [  0.00]( 1.34)     1.01 [  0.70]( 0.88)", "tbench-1", "tbench_mbps", Q),
    ("tbench", "8", 1523, "    8     1.00 [  0.00]( 0.49)     1.00 [  0.40]( 0.55)", "tbench-2", "tbench_mbps", Q),
    ("tbench", "16", 1524, "   16     1.00 [  0.00]( 1.51)     0.99 [ -0.51]( 1.23)", "tbench-4", "tbench_mbps", Q),
    ("tbench", "32", 1525, "   32     1.00 [  0.00]( 0.74)     0.97 [ -2.57]( 0.59)", "tbench-8", "tbench_mbps", Q),
    ("tbench", "64", 1526, "   64     1.00 [  0.00]( 0.92)     0.95 [ -4.69]( 0.70)", "tbench-16", "tbench_mbps", Q),
    ("tbench", "128", 1527, "  128     1.00 [  0.00]( 0.97)     0.91 [ -8.58]( 0.29)", "tbench-32", "tbench_mbps", Q),
    ("tbench", "256", 1528, "  256     1.00 [  0.00]( 1.14)     0.90 [ -9.86]( 2.40)", "tbench-64", "tbench_mbps", Q),
    ("tbench", "512", 1529, "  512     1.00 [  0.00]( 0.35)     0.97 [ -2.91]( 1.78)", "tbench-128", "tbench_mbps", Q),
    ("tbench", "1024", 1530, " 1024     1.00 [  0.00]( 0.07)     0.96 [ -4.15]( 1.43)", "tbench-256", "tbench_mbps", Q),
    ("stream-10", "Triad", 1543, "Triad     1.00 [  0.00]( 3.41)     1.00 [  0.12]( 6.25)", "both-stream-10", "triad_mbps",
     "S"),
    ("stream-100", "Triad", 1556, "Triad     1.00 [  0.00]( 5.97)     1.00 [  0.37]( 6.34)", "both-stream-100", "triad_mbps",
     "S"),
    ("netperf", "1-clients", 1566, " 1-clients     1.00 [  0.00]( 0.67)     1.00 [  0.08]( 0.15)", "both-pipe", "time_s",
     "P"),
    ("netperf", "2-clients", 1567, " 2-clients     1.00 [  0.00]( 0.15)     1.00 [  0.10]( 0.57)", "tbench-1", "tbench_mbps",
     "T 2x"),
    ("netperf", "4-clients", 1568, " 4-clients     1.00 [  0.00]( 0.58)     1.00 [  0.10]( 0.74)", "tbench-1", "tbench_mbps",
     "T Q"),
    ("netperf", "8-clients", 1569, " 8-clients     1.00 [  0.00]( 0.46)     1.00 [  0.31]( 0.64)", "tbench-2", "tbench_mbps",
     "T Q"),
    ("netperf", "16-clients", 1570, "16-clients     1.00 [  0.00]( 0.84)     0.99 [ -0.56]( 1.78)", "tbench-4", "tbench_mbps",
     "T Q"),
    ("netperf", "32-clients", 1571, "32-clients     1.00 [  0.00]( 1.07)     1.00 [  0.04]( 1.40)", "tbench-8", "tbench_mbps",
     "T Q"),
    ("netperf", "64-clients", 1572, "64-clients     1.00 [  0.00]( 1.53)     1.01 [  0.68]( 2.27)", "tbench-16", "tbench_mbps",
     "T Q"),
    ("netperf", "128-clients", 1573, "128-clients    1.00 [  0.00]( 1.17)     0.99 [ -0.70]( 1.17)", "tbench-32", "tbench_mbps",
     "T Q"),
    ("netperf", "256-clients", 1574, "256-clients    1.00 [  0.00]( 5.42)     0.91 [ -9.31](10.74)", "tbench-64", "tbench_mbps",
     "T Q"),
    ("netperf", "512-clients", 1575, "512-clients    1.00 [  0.00](48.07)     1.00 [ -0.07](47.71)", "tbench-128", "tbench_mbps",
     "T Q"),
    ("schbench", "1", 1585, "  1     1.00 [ -0.00](12.00)     1.06 [ -5.56]( 2.99)", "schbench-w1", "wakeup_p99_us",
     "4x M"),
    ("schbench", "2", 1586, "  2     1.00 [ -0.00]( 6.96)     1.08 [ -7.69]( 2.38)", "schbench-w1", "wakeup_p99_us",
     "2x M"),
    ("schbench", "4", 1587, "  4     1.00 [ -0.00](13.57)     1.07 [ -7.32](12.95)", "schbench-w1", "wakeup_p99_us",
     "Q M"),
    ("schbench", "8", 1588, "  8     1.00 [ -0.00]( 6.45)     0.98 [  2.08](10.86)", "schbench-w2", "wakeup_p99_us",
     "Q M"),
    ("schbench", "16", 1589, " 16     1.00 [ -0.00]( 3.45)     1.02 [ -1.72]( 1.69)", "schbench-w4", "wakeup_p99_us",
     "Q M"),
    ("schbench", "32", 1590, " 32     1.00 [ -0.00]( 3.00)     1.05 [ -5.00](10.92)", "schbench-w8", "wakeup_p99_us",
     "Q M"),
    ("schbench", "64", 1591, " 64     1.00 [ -0.00]( 2.18)     1.04 [ -4.17]( 1.15)", "schbench-w16", "wakeup_p99_us",
     "Q M"),
    ("schbench", "128", 1592, "128     1.00 [ -0.00]( 7.15)     1.07 [ -6.65]( 8.45)", "schbench-w32", "wakeup_p99_us",
     "Q M"),
    ("schbench", "256", 1593, "256     1.00 [ -0.00](30.20)     1.72 [-72.03](30.62)", "schbench-w64", "wakeup_p99_us",
     "Q M"),
    ("schbench", "512", 1594, "512     1.00 [ -0.00]( 4.90)     0.97 [  3.25]( 1.92) ", "schbench-w128", "wakeup_p99_us",
     "Q M"),
]
# His rows with no cell on zen3, and why.
UNMAPPED = [
    ("stream-10", "Copy, Scale, Add", "1540-1542", "sp-stream runs the triad only"),
    ("stream-100", "Copy, Scale, Add", "1553-1555", "sp-stream runs the triad only"),
    ("ycsb-mondodb", "throughput", "1604", "no MongoDB in the guest"),
    ("DeathStarBench", "1CCD to 8CCD", "1614-1617", "no microservice stack in the guest"),
]
LEDGER_METRIC = "stall_ms"
WHERE = ("mig_smt", "mig_llc", "mig_node", "mig_remote")
NUM = re.compile(r"\[\s*(-?\d+\.\d+)\]\(\s*(\d+\.\d+)\)")


def die(msg):
    sys.stderr.write("table.py: error: %s\n" % msg)
    sys.exit(1)


def his(quote):
    """His change (pct imp of the switches' side) and the larger of his two CVs."""
    m = NUM.findall(quote)
    if len(m) != 2:
        die("cannot read 'ratio [pct](CV)' twice in his line %r" % quote)
    (_, cv_tip), (pct, cv_new) = m
    return float(pct), max(float(cv_tip), float(cv_new))


def his_dir(pct, cv):
    if abs(pct) > cv:
        return 1 if pct > 0 else -1
    return 0


def check_seed(path):
    if not os.path.isfile(path):
        print("(seed mail not found at %s: quotes not checked; SEED=FILE names it)" % path)
        return
    lines = open(path, encoding="utf-8").read().split("\n")
    for t, case, n, quote, *_ in ROWS:
        if n > len(lines) or lines[n - 1] != quote:
            die("%s %s: line %d of %s is %r, not the quote %r" % (t, case, n, path, lines[n - 1] if n <= len(lines) else None, quote))
    print("Quotes checked against %s: %d lines, all exact." % (path, len(ROWS)))


def load(dirs, alias):
    data, where_from, host = {}, {}, {}
    for d in dirs:
        if not os.path.isdir(d):
            die("%s is not a directory (give the record's group directories, or the record)" % d)
        files = sorted(glob.glob(os.path.join(d, "**", "results.json"), recursive=True))
        for f in files:
            try:
                rows = json.load(open(f))
            except ValueError as e:
                die("%s: not JSON (%s)" % (f, e))
            if not isinstance(rows, list):
                die("%s: want a list of rows (bench/report.sh's results.json)" % f)
            seen = set()
            for r in rows:
                for k in ("set", "side", "metric", "mean"):
                    if k not in r:
                        die("%s: a row without '%s': %r" % (f, k, r))
                s = alias.get(r["set"], r["set"])
                if s in where_from and where_from[s] != f:
                    die("set %s is in both %s and %s: give one" % (s, where_from[s], f))
                where_from[s] = f
                seen.add(s)
                data.setdefault(s, {})[(r["metric"], r["side"])] = r
            host.update(host_times(os.path.dirname(f), alias))
        if not files:
            print("(no results.json under %s)" % d)
    return data, where_from, host


def host_times(d, alias):
    """Host seconds per set, from run.sh's make.err (lines stamped with the host's time)."""
    f = os.path.join(d, "make.err")
    out = {}
    if not os.path.isfile(f):
        return out
    cur = start = last = None
    for line in open(f, errors="replace"):
        parts = line.split(" ", 1)
        if len(parts) < 2 or not parts[0].isdigit():
            continue
        t, text = int(parts[0]), parts[1]
        m = re.match(r"== ([^:]+):", text)
        if m:
            if cur:
                out[cur] = last - start
            cur, start, last = alias.get(m.group(1), m.group(1)), t, t
        elif cur and text.startswith("ab-run:"):
            last = t
    if cur:
        out[cur] = last - start
    return out


def num(x):
    return float("nan") if x is None else float(x)


def pfmt(p):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "p -"
    return "p <0.0001" if p < 0.0001 else "p %.2g" % p


def change(cell, metric):
    """report.sh's change (+ = A better), its p, and our direction (0 where p >= 0.05 or missing)."""
    a = cell.get((metric, "A"))
    if not a or a.get("change_pct") is None:
        return None
    c, p = num(a["change_pct"]), a.get("p")
    d = 0
    if p is not None and p < 0.05 and c != 0:
        d = 1 if c > 0 else -1
    return c, p, d


def more(cell, metric):
    """Change of the mean, A against B (+ = more), and p."""
    a, b = cell.get((metric, "A")), cell.get((metric, "B"))
    if not a or not b or not num(b["mean"]):
        return "-"
    return "%+.1f%% (%s)" % ((num(a["mean"]) / num(b["mean"]) - 1) * 100, pfmt(a.get("p")))


def where(cell):
    parts = []
    for m in WHERE:
        a, b = cell.get((m, "A")), cell.get((m, "B"))
        if a and b:
            parts.append("%s %.0f->%.0f" % (m[4:], num(b["mean"]), num(a["mean"])))
    return ", ".join(parts) if parts else "-"


DIRS = {1: "better", -1: "worse", 0: "none"}


def main():
    args, alias = sys.argv[1:], {}
    while args and args[0] == "--alias":
        if len(args) < 2 or "=" not in args[1]:
            die("--alias wants SET=CELL (e.g. --alias ab=both-g8)")
        k, v = args[1].split("=", 1)
        alias[k] = v
        args = args[2:]
    if not args or any(a.startswith("-") for a in args):
        die("usage: table.py [--alias SET=CELL]... DIR... (the record, or its group directories)")
    top = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    check_seed(os.environ.get("SEED", os.path.join(top, "..", "shared", "seeds", SEED_NAME)))
    data, where_from, host = load(args, alias)
    clocks = sorted({r.get("clock") or "unknown" for cell in data.values() for r in cell.values()})
    print("Clock(s) of the cells read: %s" % ", ".join(clocks) if clocks else "No cells read.")
    print()
    print("| his row (seed line) | his change, dir | zen3 cell | scaling | ours: metric change (+ = better), dir | "
          "wait_us (+ = more) | migrations (+ = more) | by distance B->A per run | ledger stall_ms (+ = less), dir | runs a side |")
    print("|---" * 10 + "|")
    tally = {"tcg": [], "ledger": []}
    missing = []
    for t, case, n, quote, cellname, metric, scale in ROWS:
        pct, cv = his(quote)
        hd = his_dir(pct, cv)
        cell = data.get(cellname)
        if not cell or (metric, "A") not in cell:
            missing.append("%s %s (line %d) -> %s" % (t, case, n, cellname))
            continue
        ch = change(cell, metric)
        tcg = "-" if ch is None else "%s %+.1f%% (%s), %s" % (metric, ch[0], pfmt(ch[1]), DIRS[ch[2]] if ch[2] else "n.s.")
        if ch is not None:
            tally["tcg"].append((hd, ch[2], ch[1] is not None))
        led = "off"
        lc = change(cell, LEDGER_METRIC)
        if lc is not None:
            led = "%+.1f%% (%s), %s" % (lc[0], pfmt(lc[1]), DIRS[lc[2]] if lc[2] else "n.s.")
            tally["ledger"].append((hd, lc[2], lc[1] is not None))
        runs = cell[(metric, "A")].get("runs", "-")
        print("| %s %s (%d) | %+.2f%% (CV max %.2f), %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            t, case, n, pct, cv, DIRS[hd], cellname, scale, tcg, more(cell, "wait_us"), more(cell, "migrations"),
            where(cell), led, runs))
    print()
    for name, label in (("tcg", "TCG time/throughput"), ("ledger", "ledger's modelled stall")):
        rows = tally[name]
        if not rows:
            print("%s: no row has it." % label)
            continue
        changed = [r for r in rows if r[0] != 0]
        none = [r for r in rows if r[0] == 0]
        agree = sum(1 for h, o, _ in changed if o == h)
        opposite = sum(1 for h, o, _ in changed if o == -h)
        print("%s, %d rows: where he saw a change (%d), ours agrees in %d, is opposite in %d, n.s. in %d; "
              "where he saw none (%d), ours is n.s. in %d, changed in %d. Agreeing in direction: %d of %d." % (
                  label, len(rows), len(changed), agree, opposite, len(changed) - agree - opposite, len(none),
                  sum(1 for _, o, _ in none if o == 0), sum(1 for _, o, _ in none if o != 0),
                  agree + sum(1 for _, o, _ in none if o == 0), len(rows)))
    print()
    print("Scaling: " + "; ".join("%s = %s" % kv for kv in SCALES.items()) + ".")
    print("His direction: better or worse where |pct imp| is above both his CVs (his table gives no p), else none.")
    print("Ours: Welch p < 0.05 for a direction, else n.s. Counts are per row of his: rows sharing a cell each count.")
    if host:
        print()
        print("Host time per set (run.sh's make.err, first line of the set to its last pair): " + ", ".join(
            "%s %.1f min" % (s, v / 60) for s, v in sorted(host.items())))
    print()
    print("His rows, quoted (seed mail %s, K Prateek Nayak, 2023-10-27):" % SEED_NAME)
    for t, case, n, quote, *_ in ROWS:
        print("  %s %s, line %d: `%s`" % (t, case, n, quote))
    if missing:
        print()
        print("His rows whose zen3 cell was not read (not run, or not given): " + "; ".join(missing))
    print("His rows with no zen3 cell: " + "; ".join("%s %s (lines %s): %s" % u for u in UNMAPPED))
    print("Sets read: " + ", ".join("%s (%s)" % (s, os.path.relpath(f)) for s, f in sorted(where_from.items())))


main()
