#!/usr/bin/env python3
"""Pools the rounds of several `modeltuned ab` outputs (--out DIRs of one command): per table the
geometric mean over sizes of each size's geometric mean ratio over all rounds, with a 95 % Student's t
interval over the rounds' per-table geometric means, as `modeltuned ab` reports one run.
Usage: pool.py DIR...  (tables in the order of modeltuned-latency --op all)"""
import csv, math, sys
from collections import defaultdict
from statistics import mean, stdev

NAMES = ["bcast", "reduce", "allreduce", "barrier", "allgather", "alltoall"]
T975 = {1: 12.706, 2: 4.303, 5: 2.571, 9: 2.262, 29: 2.045, 59: 2.001, 99: 1.984}

def t975(df):
    return T975.get(df, 1.96 + 2.4 / df)  # close to the quantile for df >= 30

rounds = []  # per round: {table: {size: ratio}}
for d in sys.argv[1:]:
    per = defaultdict(dict)
    for row in csv.DictReader(open(f"{d}/sizes.csv")):
        per[(int(row["round"]), int(row["table"]), int(row["size"]))][row["arm"]] = float(row["value"])
    by_round = defaultdict(lambda: defaultdict(dict))
    for (r, t, s), arms in per.items():
        if arms.get("baseline", 0) > 0 and arms.get("modeltuned", 0) > 0:
            by_round[r][t][s] = arms["modeltuned"] / arms["baseline"]
    rounds += [by_round[r] for r in sorted(by_round)]
n = len(rounds)
print(f"{n} rounds from {len(sys.argv) - 1} runs")
for t in sorted(rounds[0]):
    sizes = sorted(rounds[0][t])
    per_round = [math.exp(mean(math.log(r[t][s]) for s in sizes)) for r in rounds]
    logs = [math.log(x) for x in per_round]
    half = t975(n - 1) * stdev(logs) / math.sqrt(n)
    slower = []
    for s in sizes:
        ls = [math.log(r[t][s]) for r in rounds]
        m, h = mean(ls), t975(n - 1) * stdev(ls) / math.sqrt(n)
        if m - h > math.log(1.05):
            slower.append(f"{s}: {math.exp(m):.3f} [{math.exp(m - h):.3f}, {math.exp(m + h):.3f}]")
    print(f"{NAMES[t - 1]:9s} {math.exp(mean(logs)):.3f} [{math.exp(mean(logs) - half):.3f}, "
          f"{math.exp(mean(logs) + half):.3f}]  sizes significantly slower than 1.05: "
          f"{'; '.join(slower) or 'none'}")
