#!/usr/bin/env python3
"""table.py DIR...: one row per configuration of the icount comparison.

Each DIR holds summary (run.sh's last line), make.err (the host's time per
line) and results/*/sets/SET.csv. Prints, per metric, B's and A's mean with
their CV, A's change against B and Welch's p (from the csv, which
bench/stats wrote), then the decisions of the fit per run (A), the wall
time per run and the boot's wall time.
"""
import csv, glob, os, sys

METRICS = ["migrations", "ctxsw", "wait_us", "time_s", "cpus_utilised", "mig_llc", "mig_remote", "tbench_mbps"]


def load(d, set_name):
    rows = {}
    for f in glob.glob(os.path.join(d, "results", "*", "sets", set_name + ".csv")):
        for r in csv.DictReader(open(f)):
            rows[(r["metric"], r["side"])] = r
    return rows


def summary(d):
    s = dict(kv.split("=", 1) for kv in open(os.path.join(d, "summary")).read().split())
    t = [int(l.split()[0]) for l in open(os.path.join(d, "make.err")) if l.split()[0].isdigit()]
    lines = open(os.path.join(d, "make.err")).read().splitlines()
    first = next((int(l.split()[0]) for l in lines if " == " in l), None)
    s["boot_s"] = first - int(s["start"]) if first else None
    return s


def cell(rows, m):
    b, a = rows.get((m, "B")), rows.get((m, "A"))
    if not a or not b:
        return None
    p = float(a["p"]) if a["p"] else float("nan")
    star = "*" if a["significant"] == "1" else ""
    chg = (float(a["amean"]) / float(b["amean"]) - 1) * 100 if float(b["amean"]) else float("nan")
    ps = "<0.0001" if p < 0.0001 else "%.2g" % p
    return "%+.1f%%%s (p %s; CV %.0f/%.0f)" % (chg, star, ps, float(b["cv_pct"]), float(a["cv_pct"]))


def main():
    set_name = os.environ.get("SET", "ab")
    print("| config | " + " | ".join(METRICS) + " | fits/run (A) | no_room_util/run (A) | wall/run s | boot s |")
    print("|---" * (len(METRICS) + 5) + "|")
    for d in sys.argv[1:]:
        rows = load(d, set_name)
        if not rows:
            continue
        s = summary(d)
        cells = [cell(rows, m) or "-" for m in METRICS]
        fits = sum(float(rows[(m, "A")]["amean"]) for m in ("wake_fit_target", "wake_fit_prev", "wake_fit_recent") if (m, "A") in rows)
        nru = float(rows[("wake_no_room_util", "A")]["amean"]) if ("wake_no_room_util", "A") in rows else float("nan")
        n = int(rows[("migrations", "A")]["n"]) * 2 + 2
        runs_s = (int(s["end"]) - int(s["start"]) - (s["boot_s"] or 0)) / n
        print("| %s | %s | %.0f | %.0f | %.1f | %s |" % (os.path.basename(d.rstrip("/")), " | ".join(cells), fits, nru, runs_s, s["boot_s"]))


main()
