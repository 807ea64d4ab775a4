#!/usr/bin/env python3
"""objdump -dr of one function -> one line per instruction, offsets relative to the
function, relocation targets folded into the instruction. usage: rel.py obj func"""
import re, subprocess, sys
obj, fn = sys.argv[1], sys.argv[2]
txt = subprocess.run(['objdump', '-dr', '--no-show-raw-insn', '--disassemble=' + fn, obj],
                     capture_output=True, text=True).stdout
base = None; out = []
body = txt.split('<%s>:' % fn, 1)[1]
for l in body.splitlines():
    m = re.match(r'\s*([0-9a-f]+):\s+(.*)', l)
    if not m: continue
    a, rest = int(m.group(1), 16), m.group(2).strip()
    if base is None: base = a
    if rest.startswith('R_X86_64'):
        if out: out[-1][1] += '   ; ' + rest.split(None, 1)[1]
        continue
    rest = re.sub(r'\b[0-9a-f]+ <%s\+0x([0-9a-f]+)>' % re.escape(fn), lambda mm: '+0x%x' % int(mm.group(1), 16), rest)
    rest = re.sub(r'\s+# \+0x[0-9a-f]+$', '', rest)
    rest = re.sub(r'\s+', ' ', rest)
    out.append([a - base, rest])
for a, r in out:
    print('%5x: %s' % (a, r))
