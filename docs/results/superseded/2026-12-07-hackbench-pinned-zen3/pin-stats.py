import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l[0] != '#']
for var in ('unpinned', 'pinned'):
    for metric, col in (('migrations', 3), ('ctxsw', 4), ('secs', 5)):
        on = [float(r[col]) for r in rows if r[2] == var and r[1] == 'on' and r[0] != '0']
        off = [float(r[col]) for r in rows if r[2] == var and r[1] == 'off' and r[0] != '0']
        print(f"{var:9s} {metric:10s} on  n={len(on)} med={st.median(on):8.1f} mean={st.mean(on):8.1f} cv={st.stdev(on)/st.mean(on):.2f} range={min(on):.0f}-{max(on):.0f}")
        print(f"{var:9s} {metric:10s} off n={len(off)} med={st.median(off):8.1f} mean={st.mean(off):8.1f} cv={st.stdev(off)/st.mean(off):.2f} range={min(off):.0f}-{max(off):.0f}  ratio med {st.median(on)/st.median(off):.3f}")
    on = sorted(float(r[3]) for r in rows if r[2] == var and r[1] == 'on' and r[0] != '0')
    off = sorted(float(r[3]) for r in rows if r[2] == var and r[1] == 'off' and r[0] != '0')
    print(var, 'on ', ' '.join('%d' % x for x in on))
    print(var, 'off', ' '.join('%d' % x for x in off))
