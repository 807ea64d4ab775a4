#!/usr/bin/env python3
"""Default-path instruction counts of the fast wakeup path, base fair.o against
series fair.o (kbuild-obj: same .config as base). Same method as ../paths.py:
walk from the 'if (wake_flags & WF_TTWU)' test in front of the inlined
select_idle_sibling() (base +0x4da, series +0x4db; the 320 instructions before it
have the same mnemonics and the same branch-target indices in both) to ret.
New sched_feat switches at their defaults, symmetric capacity, sched_cluster_active
off, schedstats off; a call counts as one instruction (callees identical).
The scan is taken not to wrap: the first CPU is found by find_next_bit() from
target + 1, and each later one by __for_each_wrap()'s first branch (n > start).
usage: paths2.py [-t]   (-t prints every walked instruction)"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from walk import walk

D = os.path.dirname(os.path.abspath(__file__)) + '/'
B, V = D + 'base.strf.txt', D + 'obj.strf.txt'
TRACE = '-t' in sys.argv

def run(name, db, dv, smt=False):
    if TRACE: print('### ' + name + '\n  base:')
    nb = walk(B, 0x4da, db, TRACE, patch=(0x8c8,) if smt else ())
    if TRACE: print('  series:')
    nv = walk(V, 0x4db, dv, TRACE, patch=(0x911,) if smt else ())
    print('%-66s base %3d  series %3d  %+d' % (name, nb, nv, nv - nb))
    return nb, nv

T, F = True, False
def m(*ds):
    r = {}
    for d in ds: r.update(d)
    return r

# common prefix: WF_TTWU; target busy; prev != target, shares the LLC, busy;
# waker not a per-CPU kthread; recent_used_cpu == prev (so -1); sd_llc set
pre_b = {0x4df: T, 0x528: F, 0x531: F, 0x555: T, 0x56e: T, 0x5ab: F, 0x5b7: T, 0x8c2: F}
pre_v = {0x4e0: T, 0x52b: T, 0x58e: F, 0x59d: T, 0x5b5: T, 0x5ef: F, 0x5fc: T, 0x90b: F}
# SIS_UTIL: sd->shared set, nr_idle_scan > 0; cpus & LLC not empty; first CPU found
# by find_next_bit() from target + 1 (no wrap)
sis_b = {0x97b: F, 0x986: T, 0x9b2: F, 0xb39: T}
sis_v = {0xa0a: F, 0xa14: T, 0xa6c: F, 0xbd9: T}
# after a CPU: n = cpu + 1 > start, so __for_each_wrap's first find_next_bit(), which finds one
nxt_b = lambda j: {0xb9e: [T] * j, 0xc00: [T] * j}
nxt_v = lambda j: {0xc3a: [T] * j, 0xc8a: [T] * j}

res = {}
res['target'] = run('idle target returned', {0x4df: T, 0x528: T, 0x543: F}, {0x4e0: T, 0x52b: F, 0x582: T})
res['prev'] = run('idle prev (same LLC) returned',
    {0x4df: T, 0x528: F, 0x531: F, 0x555: T, 0x56e: F, 0x57d: F},
    {0x4e0: T, 0x52b: T, 0x58e: F, 0x59d: T, 0x5b5: F, 0x5c3: F})
res['recent'] = run('idle recent_used_cpu returned',
    {0x4df: T, 0x528: F, 0x531: F, 0x555: T, 0x56e: T, 0x5ab: F, 0x5b7: F, 0x5bf: F, 0x617: T, 0x62a: F, 0x639: F, 0x647: F},
    {0x4e0: T, 0x52b: T, 0x58e: F, 0x59d: T, 0x5b5: T, 0x5ef: F, 0x5fc: F, 0x604: F, 0x65b: T, 0x673: F, 0x683: F, 0x692: F})
for k in (1, 2, 4, 8):
    res['found%d' % k] = run('no SMT: scan finds an idle CPU at the %d. CPU' % k,
        m(pre_b, sis_b, nxt_b(k - 1), {0xb55: [F] * k, 0xb5e: [T] * k, 0xbbe: [F] * k, 0xbdb: [F] * (k - 1) + [T], 0xc2d: T}),
        m(pre_v, sis_v, nxt_v(k - 1), {0xbf8: [F] * k, 0xc03: [T] * k, 0xc58: [F] * k, 0xc67: [F] * (k - 1) + [T], 0xd00: T}))
for n in (1, 2, 4, 8):
    res['budget%d' % n] = run('no SMT: SIS_UTIL budget nr_idle_scan = %d runs out' % n,
        m(pre_b, sis_b, nxt_b(n), {0xb55: [F] * (n + 1), 0xb5e: [T] * (n + 1), 0xbbe: [F] * n + [T], 0xbdb: [F] * n, 0xc37: F, 0xc3e: T}),
        m(pre_v, sis_v, nxt_v(n), {0xbf8: [F] * (n + 1), 0xc03: [T] * (n + 1), 0xc58: [F] * n + [T], 0xc67: [F] * n, 0xd00: F, 0xd0a: F, 0xd13: T}))
res['stop'] = run('no SMT: SIS_UTIL stops the scan (nr_idle_scan == 0)',
    m(pre_b, {0x97b: F, 0x986: F, 0xc37: F, 0xc3e: T}),
    m(pre_v, {0xa0a: F, 0xa14: F, 0xd0a: F, 0xd13: T}))
for k in (1, 2, 4):
    res['core%d' % k] = run('SMT: select_idle_core() finds an idle core at the %d. CPU' % k,
        m(pre_b, {0x8d8: T}, sis_b, nxt_b(k - 1), {0xb55: [F] * k, 0xb5e: [F] * k, 0xb87: [F] * (k - 1) + [T], 0xc2d: T}),
        m(pre_v, {0x922: T}, sis_v, nxt_v(k - 1), {0xbf8: [F] * k, 0xc03: [F] * k, 0xc23: [F] * (k - 1) + [T], 0xd00: T}), smt=True)
smt_b = {0x8d8: F, 0x8e8: T, 0x91e: [F, F, T], 0x923: [F, T], 0x935: F, 0x944: T}
smt_v = {0x922: F, 0x931: T, 0x968: [F, F, T], 0x96d: [F, T], 0x980: F, 0x98f: T}
res['smt'] = run('SMT, no idle core: select_idle_smt() returns an idle sibling of prev',
    m(pre_b, {0x8d8: F, 0x8e8: T, 0x91e: [F, F], 0x923: [F, T], 0x935: F, 0x944: F, 0x94d: T}),
    m(pre_v, {0x922: F, 0x931: T, 0x968: [F, F], 0x96d: [F, T], 0x980: F, 0x98f: F, 0x998: T}), smt=True)
res['smtscan'] = run('SMT, no idle core: select_idle_smt() fails, scan finds at the 1. CPU',
    m(pre_b, smt_b, sis_b, {0xb55: F, 0xb5e: T, 0xbbe: F, 0xbdb: T, 0xc2d: T}),
    m(pre_v, smt_v, sis_v, {0xbf8: F, 0xc03: T, 0xc58: F, 0xc67: T, 0xd00: T}), smt=True)
res['empty'] = run('no SMT: no CPU of the LLC allowed (cpumask_and() empty)',
    m(pre_b, {0x97b: F, 0x986: T, 0x9b2: T, 0xc37: F, 0xc3e: T}),
    m(pre_v, {0xa0a: F, 0xa14: T, 0xa6c: T, 0xd00: F, 0xd0a: F, 0xd13: T}))
