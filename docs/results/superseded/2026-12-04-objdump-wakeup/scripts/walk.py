#!/usr/bin/env python3
"""Count the instructions one path through select_task_rq_fair executes.

Reads a listing made by rel.py (offset: insn ; reloc), starts at an offset and
follows the code: conditional jumps are decided by the table given for the
path (offset -> list of outcomes, consumed one per visit: True = taken),
static-branch sites are 'xchg %ax,%ax' / 'nopl' (fall through, the default)
or 'jmp' (followed), a call counts as one instruction (its callee is out of
line and the same in both kernels), and the walk stops at 'ret'.
"""
import re, sys

def load(path):
    ins = {}
    order = []
    for l in open(path):
        a, rest = l.split(':', 1)
        a = int(a, 16)
        ins[a] = rest.split(';')[0].strip()
        order.append(a)
    nxt = {order[i]: order[i + 1] for i in range(len(order) - 1)}
    return ins, nxt

def walk(path, start, decide, trace=False, patch=()):
    ins, nxt = load(path)
    dec = {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in decide.items()}
    pc, n, seen = start, 0, []
    while True:
        i = ins[pc]
        n += 1
        seen.append((pc, i))
        op = i.split()[0]
        if op == 'ret':
            break
        t = re.search(r'\+0x([0-9a-f]+)$', i)
        if pc in patch:          # site rewritten to a nop at boot
            pc = nxt[pc]
        elif op == 'jmp':
            pc = int(t.group(1), 16)
        elif op.startswith('j'):
            if pc not in dec or not dec[pc]:
                raise SystemExit('%s: no decision for %x: %s after %d insns' % (path, pc, i, n))
            taken = dec[pc].pop(0)
            pc = int(t.group(1), 16) if taken else nxt[pc]
        else:
            pc = nxt[pc]
    if trace:
        for a, i in seen:
            print('   %5x: %s' % (a, i))
    return n
