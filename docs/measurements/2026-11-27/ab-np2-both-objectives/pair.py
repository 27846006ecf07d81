#!/usr/bin/env python3
"""Alternate two job variants N rounds; per op the geometric mean of per-size ratios B/A with a t interval.

Usage: pair.py ROUNDS OUT [LIBBUMP_SO]. A: modeltuned-latency --op reduce under Open MPI alone;
B: the same with LIBBUMP_SO preloaded (default: libbump.so beside this script, built from bump.c
with `mpicc -shared -fPIC -O2 bump.c -o libbump.so`)."""
import math, os, subprocess, sys, statistics
here = os.path.dirname(os.path.abspath(__file__))
rounds = int(sys.argv[1]); out = sys.argv[2]
bump = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else os.path.join(here, 'libbump.so')
top = os.path.abspath(os.path.join(here, '..', '..', '..', '..'))
pkglibdir = subprocess.run(['ompi_info', '--path', 'pkglibdir', '--parsable'], capture_output=True, text=True,
                           check=True).stdout.strip().split(':')[-1]
env = dict(os.environ, OMPI_MCA_mca_base_component_path=f'{top}/build/mca-components:{pkglibdir}')
base = ['mpirun', '--allow-run-as-root', '-np', '2', '--bind-to', 'core', '--mca', 'coll', '^modeltuned']
prog = [f'{top}/build/tools/latency/modeltuned-latency', '--op', 'reduce']
A = base + prog
B = base + ['-x', f'LD_PRELOAD={bump}'] + prog
def run(cmd):
    text = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    res = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].isdigit():
            res[int(parts[0])] = float(parts[1])
    return res
ratios = {}
for r in range(rounds):
    order = [('A', A), ('B', B)] if r % 2 == 0 else [('B', B), ('A', A)]
    got = {name: run(cmd) for name, cmd in order}
    for size in got['A']:
        ratios.setdefault(size, []).append(got['B'][size] / got['A'][size])
def ci(v):
    l = [math.log(x) for x in v]; m = statistics.mean(l); s = statistics.stdev(l) / math.sqrt(len(l))
    return math.exp(m), math.exp(m - 2.0 * s), math.exp(m + 2.0 * s)
with open(out, 'w') as f:
    per_round = [math.exp(statistics.mean(math.log(ratios[s][i]) for s in ratios)) for i in range(rounds)]
    g, lo, hi = ci(per_round)
    print(f'reduce geomean over sizes, B/A: {g:.3f} [{lo:.3f}, {hi:.3f}] ({rounds} rounds)', file=f)
    for s in sorted(ratios):
        g, lo, hi = ci(ratios[s]); print(f'{s:>8} {g:.3f} [{lo:.3f}, {hi:.3f}]', file=f)
