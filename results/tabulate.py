#!/usr/bin/env python3
"""The tables that the README and docs/validation.md quote, from the raw outputs of results/.

  tabulate.py ab LABEL:REPORT:SUMMARY_CSV ...
      one Markdown row per `modeltuned ab` run: each op's geometric mean over sizes with its 95 %
      interval, then each op's sizes whose interval lies above 1.05 or below 1.00.
  tabulate.py wins AB_REPORT:AB_SUMMARY COMPONENT:ALONE_REPORT:ALONE_SUMMARY ...
      the wins a component has over the default in one results/ab run (its time r <= 0.80 of the
      default's in the A/B of the default against it switched on) and whether modeltuned's time, in
      the A/B against the default, is within 1 - 0.8 (1 - r) of the default's there: the share of
      each win modeltuned must keep.
  tabulate.py bench ARM:FILE ...
      `modeltuned-bench` outputs per arm (e.g. guard on / off): per op, the geometric mean over
      sizes and seeds of modeltuned / default, per arm, and the first arm over the second.
"""
import csv
import math
import re
import sys
from collections import defaultdict


def op_names(report):
    """The ops of a modeltuned-latency report, in the order of its tables (1, 2, ...)."""
    names = re.findall(r"^modeltuned-latency: MPI_(\w+) on", open(report).read(), re.M)
    return [n.lower() for n in names]


def ab_rows(runs):
    parsed = []
    for run in runs:
        label, report, summary = run.split(":", 2)
        names = op_names(report)
        per_op = defaultdict(dict)
        rounds = 0
        for row in csv.DictReader(open(summary)):
            if row["table"] == "wall":
                rounds = int(row["rounds"])
                continue
            op = names[int(row["table"]) - 1]
            per_op[op][row["size"]] = (float(row["ratio"]), float(row["low"]), float(row["high"]))
        scored = re.findall(r"^  scored: +(.*)$", open(report).read(), re.M)
        parsed.append((label, rounds, per_op, scored))
    ops = list(parsed[0][2])
    print("| machine, job (date, commit) | rounds | " + " | ".join(ops) + " |")
    print("|---|---|" + "---|" * len(ops))
    for label, rounds, per_op, _ in parsed:
        cells = [fmt(per_op[op]["all"]) if "all" in per_op[op] else "-" for op in ops]
        print(f"| {label} | {rounds} | " + " | ".join(cells) + " |")
    for label, _, per_op, scored in parsed:
        print(f"\n{label}:")
        for line in scored:  # a baseline that crashed at some sizes, scored where it completed
            print(f"- {line}")
        for op in ops:
            sizes = {s: v for s, v in per_op[op].items() if s != "all"}
            slower = [f"{size_name(s)} {fmt(v)}" for s, v in sizes.items() if v[1] > 1.05]
            faster = [f"{size_name(s)} {fmt(v)}" for s, v in sizes.items() if v[2] < 1.0]
            print(f"- {op}: significantly slower than 1.05: {', '.join(slower) or 'none'}; "
                  f"significantly faster: {', '.join(faster) or 'none'}")


def fmt(v):
    return f"{v[0]:.3f} [{v[1]:.3f}, {v[2]:.3f}]"


def size_name(s):
    n = int(s)
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def size_ratios(report, summary):
    """Per (op, size) of one `modeltuned ab` run, modeltuned / baseline: the geometric mean over
    the rounds of the paired ratios."""
    names = op_names(report)
    return {(names[int(row["table"]) - 1], int(row["size"])): float(row["ratio"])
            for row in csv.DictReader(open(summary)) if row["table"] != "wall" and row["size"] != "all"}


def wins_rows(runs):
    """The wins of each component: r, its time over the default's, from the A/B of Open MPI's
    default against it switched on (that A/B's ratio is 1 / r, paired within its rounds); where
    r <= 0.80, modeltuned / default from the A/B against the default, and the bound it must meet."""
    ab_report, ab_summary = runs[0].split(":", 1)
    ours = size_ratios(ab_report, ab_summary)
    print("| component | op | size | component / default | modeltuned / default | at most | kept |")
    print("|---|---|---|---|---|---|---|")
    met = missed = 0
    for run in runs[1:]:
        component, report, summary = run.split(":", 2)
        for (op, size), default_over_component in size_ratios(report, summary).items():
            versus_default = ours.get((op, size))
            if versus_default is None or default_over_component <= 0:
                continue
            r = 1 / default_over_component
            if r > 0.8:
                continue
            bound = 1 - 0.8 * (1 - r)
            met, missed = met + (versus_default <= bound), missed + (versus_default > bound)
            print(f"| {component} | {op} | {size_name(size)} | {r:.2f} | {versus_default:.2f} | {bound:.2f} | "
                  f"{'yes' if versus_default <= bound else 'no'} |")
    print(f"\n{met} of {met + missed} wins kept (geometric means over the rounds of each A/B)")


def bench_ratios(path):
    """Per op, the modeltuned / default ratio of every size in one modeltuned-bench output."""
    per = defaultdict(list)
    for line in open(path):
        f = line.split()
        # The last column: mt/default as "ratio[low,high]", '~' where not significant.
        m = re.fullmatch(r"([0-9.]+)(\[[0-9.,]+\])?~?", f[-1]) if len(f) > 3 and f[1].isdigit() else None
        if m:
            per[f[0]].append(float(m.group(1)))
    return per


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def bench_rows(runs):
    arms = defaultdict(lambda: defaultdict(list))
    for run in runs:
        arm, path = run.split(":", 1)
        for op, ratios in bench_ratios(path).items():
            arms[arm][op] += ratios
    names = list(arms)
    if not names:
        sys.exit("tabulate.py bench: no ratio in the outputs (too few repetitions for an interval?)")
    ops = list(arms[names[0]])
    head = " | ".join(f"{a}: modeltuned / default" for a in names)
    last = f" | {names[0]} / {names[1]}" if len(names) == 2 else ""
    print(f"| op | {head}{last} |")
    print("|---|" + "---|" * (len(names) + (1 if last else 0)))
    for op in ops + ["all"]:
        means = [geomean(arms[a][op] if op != "all" else sum(arms[a].values(), [])) for a in names]
        cells = " | ".join(f"{m:.3f}" for m in means)
        print(f"| {op} | {cells}" + (f" | {means[0] / means[1]:.3f}" if last else "") + " |")


if __name__ == "__main__":
    modes = {"ab": ab_rows, "wins": wins_rows, "bench": bench_rows}
    if len(sys.argv) < 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    modes[sys.argv[1]](sys.argv[2:])
