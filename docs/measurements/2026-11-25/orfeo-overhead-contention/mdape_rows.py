#!/usr/bin/env python3
"""MdAPE per op x algorithm x mapping over all P and sizes, from `modeltuned validate` predictions.

Usage: mdape_rows.py PREDICTIONS_CSV [PREDICTION MEASURED] [PREDICTIONS_CSV ...]
  PREDICTION MEASURED: the columns compared (default: p2p-completion measured_max, the completion
  model against OSU's slowest rank; p2p-rank-mean measured for the rank mean against `latency`).
Several files (same columns): one column of MdAPE per file, side by side.
"""
import csv
import sys
from collections import defaultdict

args = sys.argv[1:]
col, mcol = 'p2p-completion', 'measured_max'
files = [a for a in args if a.endswith('.csv')]
rest = [a for a in args if not a.endswith('.csv')]
if len(rest) == 2:
    col, mcol = rest
tables = []
for path in files:
    err = defaultdict(list)
    for r in csv.DictReader(open(path)):
        if r.get(col) and r.get(mcol):
            err[(r['op'], r['algorithm'], r['mapping'])].append(abs(float(r[col]) / float(r[mcol]) - 1))
    tables.append({k: 100 * sorted(v)[len(v) // 2] for k, v in err.items()})
print(f'MdAPE (%) of {col} against {mcol}, all P and sizes:', ' | '.join(files))
for k in sorted(tables[0]):
    print(f'{k[0]:7s}{k[1]:10s}{k[2]:8s}', ' '.join(f'{t.get(k, float("nan")):6.1f}' for t in tables))
