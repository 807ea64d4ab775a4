#!/usr/bin/env python3
"""Per run of hackbench_test: median(on) / median(off) of the migrations.
Also a within-run null: each side's 10 runs split into alternate halves,
median(half 1) / median(half 2), 5 against 5 at 10 runs a side (two per run).

usage: ratios.py FILE.raw...   (the TAP of each run, after a "## run N" line)
"""
import re
import statistics as st
import sys

for path in sys.argv[1:]:
    ratios, nulls = [], []
    for run in open(path).read().split('## run ')[1:]:
        on = re.search(r'migrations, on:(.*)', run)
        off = re.search(r'migrations, off:(.*)', run)
        if not on or not off:
            continue
        on = [float(x) for x in on.group(1).split()]
        off = [float(x) for x in off.group(1).split()]
        ratios.append(st.median(on) / st.median(off))
        for v in (on, off):
            nulls.append(st.median(v[0::2]) / st.median(v[1::2]))
    print(f'{path}: {len(ratios)} runs')
    print('  on/off, sorted:', ' '.join(f'{r:.3f}' for r in sorted(ratios)))
    if len(ratios) > 1:
        print(f'  mean {st.mean(ratios):.3f}, sd {st.stdev(ratios):.3f}, max {max(ratios):.3f}')
    print('  null, alternate halves, sorted:', ' '.join(f'{r:.2f}' for r in sorted(nulls)))
