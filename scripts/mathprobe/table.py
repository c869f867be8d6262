#!/usr/bin/env python3
"""The cost table of src/analysis/timing/mathcost.c from the recorded measurements.

usage: table.py [DIR]     (DIR: tests/data/mathprobe, as run.sh wrote it)

For every operation of mathprobe.cu and every mode (default, -ftz=true,
-prec-div=false -prec-sqrt=false, --use_fast_math): the FP32 and FP64
FLOPs per call as Nsight Compute counts them (FADD and FMUL 1, FFMA 2;
likewise for FP64), the copy kernel's subtracted, the least and the most
over the two input ranges. Prints the C rows; tests/mathcost.py compares
them with the table in the source.
"""
import csv
import gzip
import io
import os
import sys

N = 1 << 20
MODES = ["default", "ftz", "approx", "fast"]


def load(d, mode):
    names = []
    with open(os.path.join(d, "run_%s.txt" % mode)) as f:
        for line in f:
            p = line.split()
            if p and p[0] == "range":
                names.append((int(p[1]), p[2], p[3]))
    with gzip.open(os.path.join(d, "ncu_%s.csv.gz" % mode), "rt") as f:
        rows = [l for l in f.read().splitlines() if l.startswith('"')]
    per = {}
    order = []
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        i = int(row["ID"])
        if i not in per:
            per[i] = {}
            order.append(i)
        per[i][row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
    if len(order) != len(names):
        raise SystemExit("%s: %d launches profiled, %d run" % (mode, len(order), len(names)))
    out = {}
    for key, i in zip(names, order):
        m = per[i]

        def g(op):
            return m["smsp__sass_thread_inst_executed_op_%s_pred_on.sum" % op] / N

        out[key] = (g("fadd") + g("fmul") + 2 * g("ffma"), g("dadd") + g("dmul") + 2 * g("dfma"))
    return out


def costs(d):
    """{(prec, op): [(fp32_lo, fp32_hi, fp64_lo, fp64_hi) per mode]}"""
    data = {m: load(d, m) for m in MODES}
    ops = []
    for (_, prec, op) in data["default"]:
        if op != "copy" and (prec, op) not in ops:
            ops.append((prec, op))
    res = {}
    for prec, op in ops:
        row = []
        for m in MODES:
            v = [[data[m][(r, prec, op)][j] - data[m][(r, prec, "copy")][j] for r in (0, 1)]
                 for j in (0, 1)]
            row.append(tuple(round(f(v[j]), 2) for j in (0, 1) for f in (min, max)))
        res[(prec, op)] = row
    return res


def c_rows(res):
    lines = []
    for (prec, op), row in res.items():
        cells = ", ".join("{%s}" % ", ".join("%g" % x for x in c) for c in row)
        lines.append('    {"%s", %d, {%s}},' % (op, 64 if prec == "f64" else 32, cells))
    return lines


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "tests", "data",
                                                           "mathprobe")
    print("\n".join(c_rows(costs(d))))
