import csv, sys, os
# usage: table.py DIR SET... : change in the mean, A vs B (sign: + = more), * p<0.05
cols = [('migrations','migrations'),('ctxsw','ctxsw'),('wait_us','wait/timeslice'),('time_s','time'),('tbench_mbps','tbench MB/s'),('rps','rps'),('wakeup_p99_us','wakeup p99')]
d = sys.argv[1]
rows = []
present = set()
data = {}
for s in sys.argv[2:]:
    f = os.path.join(d, s + '.csv')
    if not os.path.exists(f): continue
    m = {}
    for r in csv.DictReader(open(f)):
        m.setdefault(r['metric'], {})[r['side']] = r
    data[s] = m
    present |= set(m)
use = [c for c in cols if c[0] in present]
print('| set | ' + ' | '.join(c[1] for c in use) + ' | fits / bias_last per run (A) |')
print('|' + '---|' * (len(use) + 2))
for s, m in data.items():
    cells = []
    for k, _ in use:
        if k not in m: cells.append(''); continue
        a, b = float(m[k]['A']['amean']), float(m[k]['B']['amean'])
        p = m[k]['A']['p']
        chg = 100 * (a - b) / b if b else 0
        star = ' *' if p and float(p) < 0.05 else ''
        cells.append('%+.1f%%%s' % (chg, star))
    fits = sum(float(m[k]['A']['amean']) for k in ('wake_fit_target','wake_fit_prev','wake_fit_recent') if k in m)
    last = float(m['wake_bias_last']['A']['amean']) if 'wake_bias_last' in m else 0
    cells.append('%.0f / %.0f' % (fits, last))
    print('| %s | %s |' % (s, ' | '.join(cells)))
