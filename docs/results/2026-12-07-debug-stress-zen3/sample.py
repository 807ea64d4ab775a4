import socket, sys, time, re, bisect, collections
sock, n, dt = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
syms = []
for l in open('/work/main/build/kbuild-debug/System.map'):
    a, t, s = l.split()
    if t in 'tTwW':
        syms.append((int(a, 16), s))
syms.sort()
addrs = [a for a, _ in syms]
def name(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    return syms[i][1] if i >= 0 else hex(pc)
s = socket.socket(socket.AF_UNIX); s.connect(sock); s.settimeout(10)
def cmd(c):
    s.sendall((c + '\n').encode()); buf = b''
    while True:
        try:
            d = s.recv(65536)
        except socket.timeout:
            break
        buf += d
        if buf.rstrip().endswith(b'(qemu)'):
            break
    return buf.decode(errors='replace')
cmd('')
halted = collections.Counter(); funcs = collections.Counter(); per = collections.Counter()
for i in range(n):
    out = cmd('info registers -a')
    for m in re.finditer(r'CPU#(\d+).*?RIP=([0-9a-f]+).*?HLT=(\d)', out, re.S):
        c, pc, h = int(m.group(1)), int(m.group(2), 16), m.group(3) == '1'
        if h: halted[c] += 1
        else:
            funcs[name(pc)] += 1; per[c] += 1
    time.sleep(dt)
print('samples', n, 'mean halted', sum(halted.values()) / n)
print('running per cpu (top):', per.most_common(10))
for f, k in funcs.most_common(40): print(k, f)
