#!/usr/bin/env python3
"""Decode __jump_table of a kernel object (readelf -rW + nm), list sites per function.
usage: jt.py fair.o features.h FUNC..."""
import re, subprocess, sys
obj, feath, funcs = sys.argv[1], sys.argv[2], sys.argv[3:]
# feature enum order (duplicates under #ifdef/#else keep one index)
names = []
for l in open(feath):
    m = re.match(r'\s*SCHED_FEAT\((\w+),', l)
    if m and m.group(1) not in names:
        names.append(m.group(1))
syms = {}
for l in subprocess.run(['nm', '-S', obj], capture_output=True, text=True).stdout.splitlines():
    p = l.split()
    if len(p) == 4 and p[2] in 'tT':
        syms[p[3]] = (int(p[0], 16), int(p[1], 16))
rel = subprocess.run(['readelf', '-rW', obj], capture_output=True, text=True).stdout
sec = rel.split("Relocation section '.rela__jump_table'")[1].split('Relocation section')[0]
ent = {}
for l in sec.splitlines():
    m = re.match(r'([0-9a-f]+)\s+\S+\s+(\S+)\s+[0-9a-f]+\s+(\S+) \+ ([0-9a-f]+)', l)
    if not m: continue
    off, typ, sym, add = int(m.group(1), 16), m.group(2), m.group(3), int(m.group(4), 16)
    ent.setdefault(off // 16, {})[off % 16] = (sym, add)
for fn in funcs:
    if fn not in syms: continue
    s, z = syms[fn]
    rows = []
    for i, e in sorted(ent.items()):
        if e[0][0] != '.text': continue
        code = e[0][1]
        if not (s <= code < s + z): continue
        key, add = e[8]
        flags = add & 3
        kadd = add & ~3
        if key == 'sched_feat_keys':
            kname = 'sched_feat(%s)' % names[kadd // 16]
        else:
            kname = key + ('+%d' % kadd if kadd else '')
        rows.append((code - s, e[4][1] - s, kname, flags))
    print('%s: %d static-branch sites' % (fn, len(rows)))
    for c, t, k, f in rows:
        print('  +0x%04x -> +0x%04x  %-34s branch=%d %s' % (c, t, k, f & 1, 'nop-in-image' if f & 2 else 'jmp-in-image'))
