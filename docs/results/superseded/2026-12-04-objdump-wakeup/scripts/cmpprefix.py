#!/usr/bin/env python3
"""Compare two rel.py listings instruction by instruction: mnemonics, and branch
targets mapped to instruction indices. usage: cmpprefix.py a.txt b.txt"""
import re, sys
def load(p):
    offs, ins = [], []
    for l in open(p):
        a, r = l.split(':', 1)
        offs.append(int(a, 16)); ins.append(r.split(';')[0].strip())
    return offs, ins
ao, ai = load(sys.argv[1]); bo, bi = load(sys.argv[2])
aidx = {o: i for i, o in enumerate(ao)}; bidx = {o: i for i, o in enumerate(bo)}
first_mn = first_tgt = None
for i in range(min(len(ai), len(bi))):
    ma, mb = ai[i].split()[0], bi[i].split()[0]
    if ma != mb and first_mn is None:
        first_mn = i
    ta = re.search(r'\+0x([0-9a-f]+)$', ai[i]); tb = re.search(r'\+0x([0-9a-f]+)$', bi[i])
    if ta and tb and ma.startswith('j') and first_tgt is None:
        xa, xb = aidx.get(int(ta.group(1), 16)), bidx.get(int(tb.group(1), 16))
        if xa != xb:
            first_tgt = (i, ao[i], bo[i], xa, xb)
    if first_mn is not None:
        break
print('first mnemonic difference at insn index %s (a +0x%x %s | b +0x%x %s)' % (first_mn, ao[first_mn], ai[first_mn], bo[first_mn], bi[first_mn]))
print('first branch whose target index differs before that:', first_tgt)
# list all branch-target index mismatches before first_mn
for i in range(first_mn):
    ta = re.search(r'\+0x([0-9a-f]+)$', ai[i]); tb = re.search(r'\+0x([0-9a-f]+)$', bi[i])
    if ta and tb and ai[i].split()[0].startswith('j'):
        xa, xb = aidx.get(int(ta.group(1), 16)), bidx.get(int(tb.group(1), 16))
        if xa != xb:
            print('  idx %d a +0x%x %s -> idx %s | b +0x%x %s -> idx %s' % (i, ao[i], ai[i], xa, bo[i], bi[i], xb))
