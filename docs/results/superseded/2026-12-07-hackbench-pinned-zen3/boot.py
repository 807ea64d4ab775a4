import sys, random, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l[0] != '#']
random.seed(1)
for var in ('unpinned', 'pinned'):
    on = [float(r[3]) for r in rows if r[2] == var and r[1] == 'on' and r[0] != '0']
    off = [float(r[3]) for r in rows if r[2] == var and r[1] == 'off' and r[0] != '0']
    for reps in (6, 8, 10):
        rs = []
        for _ in range(20000):
            a = random.sample(on, reps) if reps <= len(on) else random.choices(on, k=reps)
            b = random.sample(off, reps) if reps <= len(off) else random.choices(off, k=reps)
            rs.append(st.median(a) / st.median(b))
        rs.sort()
        q = lambda p: rs[int(p * len(rs))]
        print(f"{var:9s} reps {reps:2d}: mean {st.mean(rs):.3f} sd {st.stdev(rs):.3f} p50 {q(.5):.3f} p95 {q(.95):.3f} p99 {q(.99):.3f} max {rs[-1]:.3f}  P(>0.85) {sum(r > 0.85 for r in rs)/len(rs):.4f} P(>0.7) {sum(r > 0.7 for r in rs)/len(rs):.4f}")
