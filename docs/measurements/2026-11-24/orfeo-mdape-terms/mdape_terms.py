#!/usr/bin/env python3
"""What relay and contention terms could buy on ORFEO, estimated from `modeltuned validate` output.

Usage: mdape_terms.py PREDICTIONS_CSV [COLUMN MEASURED]
  PREDICTIONS_CSV  predictions.csv of `modeltuned validate --quick` (with or without --contention-from)
  COLUMN MEASURED  the prediction and the measurement to compare (default: p2p-completion measured_max,
                   the completion model against OSU's slowest rank)

Prints per op x algorithm x mapping the median absolute percentage error (MdAPE) at P <= 126, at
P >= 130 (the second node) and over all P, and the P >= 130 MdAPE after adding a per-hop relay
cost fitted on the forced chain bcast/reduce at 10 <= P <= 126, eager sizes (<= 4 KiB) only: the
median over those points of (measured - predicted) / (hops - 1), per op and mapping. Trees get
(depth - 1) relays, depth as Open MPI builds them (chain with 4 chains: ceil((P-1)/4); binomial:
ceil(log2 P); binary: floor(log2 P)). An estimate of what a relay term in the schedule would
buy, fitted on collective measurements at P <= 126 and scored on P >= 130 only (issue 12, item 5).
"""
import csv
import math
import statistics as st
import sys
from collections import defaultdict

EAGER = 4096


def depth(algorithm, p):
    if algorithm == 'chain':
        return math.ceil((p - 1) / 4)
    if algorithm == 'binomial':
        return math.ceil(math.log2(p))
    if algorithm in ('bintree', 'binary'):
        return int(math.floor(math.log2(p)))
    return 0


def main():
    path = sys.argv[1]
    col = sys.argv[2] if len(sys.argv) > 2 else 'p2p-completion'
    mcol = sys.argv[3] if len(sys.argv) > 3 else 'measured_max'
    rows = [r for r in csv.DictReader(open(path)) if r.get(col) and r.get(mcol)]
    per_hop = defaultdict(list)
    for r in rows:
        p, b = int(r['p']), float(r['bytes'])
        if r['algorithm'] == 'chain' and 10 <= p <= 126 and b <= EAGER:
            per_hop[(r['op'], r['mapping'])].append((float(r[mcol]) - float(r[col])) / (depth('chain', p) - 1))
    relay = {k: max(0.0, st.median(v)) for k, v in per_hop.items()}
    print('relay per hop (us), fitted on chain at 10 <= P <= 126, <= 4 KiB:',
          ', '.join(f'{op} {m} {v:.2f}' for (op, m), v in sorted(relay.items())))
    err = defaultdict(lambda: ([], [], []))
    for r in rows:
        p, b = int(r['p']), float(r['bytes'])
        pred, meas = float(r[col]), float(r[mcol])
        key = (r['op'], r['algorithm'], r['mapping'])
        err[key][0 if p <= 126 else 1].append(abs(pred / meas - 1))
        if p >= 130:
            hops = max(0, depth(r['algorithm'], p) - 1)
            extra = relay.get((r['op'], r['mapping']), 0.0) * hops if b <= EAGER else 0.0
            err[key][2].append(abs((pred + extra) / meas - 1))
    print(f'{"op":7}{"algorithm":10}{"mapping":8}{"P<=126":>8}{"P>=130":>8}{"all":>8}{"P>=130+relay":>14}')
    pct = lambda v: f'{100 * st.median(v):.0f}%' if v else '-'
    for key in sorted(err):
        lo, hi, relayed = err[key]
        print(f'{key[0]:7}{key[1]:10}{key[2]:8}{pct(lo):>8}{pct(hi):>8}{pct(lo + hi):>8}{pct(relayed):>14}')


if __name__ == '__main__':
    main()
