#!/usr/bin/env python3
"""Instructions of a function reachable from its entry when some static-branch
sites are held at their default (no edge to their l_yes target); every other
site may go either way. usage: reach.py listing.txt fair.o features.h func [blocked-site-offsets-hex...]"""
import os, re, subprocess, sys
lst, obj, feat, fn = sys.argv[1:5]
blocked = {int(x, 16) for x in sys.argv[5:]}
ins, order = {}, []
for l in open(lst):
    a, rest = l.split(':', 1)
    a = int(a, 16); ins[a] = rest.split(';')[0].strip(); order.append(a)
nxt = {order[i]: order[i + 1] for i in range(len(order) - 1)}
# static-branch sites: offset -> l_yes target, from jt.py
out = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'jt.py'), obj, feat, fn], capture_output=True, text=True).stdout
sites = {}
for l in out.splitlines():
    m = re.match(r'\s+\+0x([0-9a-f]+) -> \+0x([0-9a-f]+)\s+(\S+)', l)
    if m: sites[int(m.group(1), 16)] = (int(m.group(2), 16), m.group(3))
seen, stack = set(), [order[0]]
while stack:
    pc = stack.pop()
    if pc in seen: continue
    seen.add(pc)
    i = ins[pc]; op = i.split()[0]
    t = re.search(r'\+0x([0-9a-f]+)$', i)
    succ = []
    if pc in sites:
        tgt = sites[pc][0]
        if op == 'jmp':                 # jmp in the image: taken until patched to a nop
            succ = [tgt] + ([] if pc in blocked else [nxt[pc]])
        else:                           # nop in the image: falls through until patched to a jmp
            succ = [nxt[pc]] + ([] if pc in blocked else [tgt])
    elif op == 'ret':
        succ = []
    elif op == 'jmp':
        succ = [int(t.group(1), 16)] if t else []
    elif op.startswith('j'):
        succ = [nxt[pc], int(t.group(1), 16)]
    else:
        succ = [nxt[pc]]
    stack.extend(succ)
print('%s: %d instructions, %d reachable with sites %s held at default' %
      (fn, len(order), len(seen), ','.join('+0x%x' % b for b in sorted(blocked)) or '(none)'))
unreach = [a for a in order if a not in seen]
if unreach:
    # print runs
    runs, cur = [], [unreach[0]]
    for a in unreach[1:]:
        if order.index(a) == order.index(cur[-1]) + 1: cur.append(a)
        else: runs.append(cur); cur = [a]
    runs.append(cur)
    for r in runs:
        print('  only behind a held site: +0x%x..+0x%x (%d insns)' % (r[0], r[-1], len(r)))
