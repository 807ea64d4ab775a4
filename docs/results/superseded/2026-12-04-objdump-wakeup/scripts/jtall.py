#!/usr/bin/env python3
"""Static-branch sites per function, from .rela__jump_table of two .o files (keys decoded
with each tree's features.h). Prints functions whose site list differs, and the totals.
usage: jtall.py a.o a-features.h b.o b-features.h"""
import re, subprocess, sys
def sites(obj, feath):
    names = []
    for l in open(feath):
        m = re.match(r'\s*SCHED_FEAT\((\w+),', l)
        if m and m.group(1) not in names: names.append(m.group(1))
    syms = []
    for l in subprocess.run(['nm', '-S', obj], capture_output=True, text=True).stdout.splitlines():
        p = l.split()
        if len(p) == 4 and p[2] in 'tT': syms.append((int(p[0], 16), int(p[1], 16), p[3]))
    rel = subprocess.run(['readelf', '-rW', obj], capture_output=True, text=True).stdout
    sec = rel.split("Relocation section '.rela__jump_table'")[1].split('Relocation section')[0]
    ent = {}
    for l in sec.splitlines():
        m = re.match(r'([0-9a-f]+)\s+\S+\s+(\S+)\s+[0-9a-f]+\s+(\S+) \+ ([0-9a-f]+)', l)
        if m: ent.setdefault(int(m.group(1), 16) // 16, {})[int(m.group(1), 16) % 16] = (m.group(3), int(m.group(4), 16))
    per = {}; other = 0
    for i, e in sorted(ent.items()):
        if e[0][0] != '.text': other += 1; continue
        code = e[0][1]; key, add = e[8]
        fn = [s for s in syms if s[0] <= code < s[0] + s[1]]
        fn = fn[0] if fn else (code, 0, '?')
        k = 'sched_feat(%s)' % names[(add & ~3) // 16] if key == 'sched_feat_keys' else key + ('+%d' % (add & ~3) if add & ~3 else '')
        per.setdefault(fn[2], []).append((code - fn[0], k))
    return per, len(ent), other
(pa, ta, oa), (pb, tb, ob) = sites(sys.argv[1], sys.argv[2]), sites(sys.argv[3], sys.argv[4])
print('jump-table entries: a %d (%d outside .text)  b %d (%d outside .text)' % (ta, oa, tb, ob))
for f in sorted(set(pa) | set(pb)):
    ka = [k for _, k in pa.get(f, [])]; kb = [k for _, k in pb.get(f, [])]
    if ka == kb: continue
    print('%-36s a %2d  b %2d' % (f, len(ka), len(kb)))
    print('    a: ' + ', '.join('+0x%x %s' % x for x in pa.get(f, [])))
    print('    b: ' + ', '.join('+0x%x %s' % x for x in pb.get(f, [])))
