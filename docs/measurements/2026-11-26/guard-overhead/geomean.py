import sys, math, re
# Usage: geomean.py [--ops OP,OP,...] FILE...  (default ops: bcast, reduce, allreduce)
ops = ('bcast','reduce','allreduce')
if sys.argv[1:2] == ['--ops']:
    ops = tuple(sys.argv[2].split(','))
    del sys.argv[1:3]
for path in sys.argv[1:]:
    per = {}
    for line in open(path):
        f = line.split()
        if len(f) > 3 and f[0] in ops and f[1].isdigit():
            r = float(f[-1].rstrip('~'))
            per.setdefault(f[0], []).append(r)
    out = []
    allr = []
    for op in ops:
        v = per.get(op, [])
        allr += v
        if v: out.append(f"{op} {math.exp(sum(map(math.log,v))/len(v)):.3f}")
    guard = [l.strip() for l in open(path) if 'guard (rank 0)' in l]
    print(path, ' '.join(out), f"all {math.exp(sum(map(math.log,allr))/len(allr)):.3f}", '|', guard[0] if guard else '')
