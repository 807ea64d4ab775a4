#!/usr/bin/env python3
"""Per-function instruction counts of two .o files, and whether the instruction text
(absolute/call addresses and relocation addends stripped) is the same. usage: funcdiff.py a.o b.o"""
import re, subprocess, sys
def funcs(obj):
    txt = subprocess.run(['objdump', '-dr', '--no-show-raw-insn', obj], capture_output=True, text=True).stdout
    out, cur = {}, None
    for l in txt.splitlines():
        m = re.match(r'[0-9a-f]+ <(.+)>:$', l)
        if m: cur = m.group(1); out[cur] = []; continue
        m = re.match(r'\s*[0-9a-f]+:\s+(.*)', l)
        if not m or cur is None: continue
        r = m.group(1).strip()
        if r.startswith('R_X86_64'):
            out[cur].append('  reloc ' + re.sub(r'[+-]0x[0-9a-f]+$', '', r.split(None, 1)[1]))
            continue
        r = re.sub(r'\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>', lambda mm: '<%s>' % mm.group(1), r)
        r = re.sub(r'\s+#.*$', '', r); r = re.sub(r'\s+', ' ', r)
        out[cur].append(r)
    return out
a, b = funcs(sys.argv[1]), funcs(sys.argv[2])
n = lambda L: sum(1 for x in L if not x.startswith('  reloc'))
for f in sorted(set(a) | set(b)):
    if f in a and f in b and a[f] == b[f]: continue
    na = n(a[f]) if f in a else '-'; nb = n(b[f]) if f in b else '-'
    print('%-40s %5s %5s %s' % (f, na, nb, 'differs' if f in a and f in b else ''))
print('identical functions:', sum(1 for f in set(a) & set(b) if a[f] == b[f]), 'of', len(set(a) & set(b)), 'common')
