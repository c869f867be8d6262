#!/usr/bin/env python3
"""ncu.csv of run.sh -> one line per probe: name, PTX instruction, warp
instructions one copy executes ((K=48 - K=16) / 32).

usage: table.py NCU_CSV"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import OPS  # noqa: E402


def per_copy(ncu_csv):
    """{probe name: (PTX instruction, warp instructions per copy or None)}."""
    insts = {}
    with open(ncu_csv) as f:
        rows = [r for r in csv.reader(f) if len(r) > 5]
    head = rows[0]
    ki, mi, vi = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
    for r in rows[1:]:
        m = re.match(r"k_(\d+)_(\w+)", r[ki])
        if m and r[mi] == "smsp__inst_executed.sum":
            insts[(int(m.group(1)), m.group(2))] = float(r[vi].replace(",", ""))
    out = {}
    for name, ptx, *_ in OPS:
        a, b = insts.get((16, name)), insts.get((48, name))
        out[name] = (ptx, None if a is None or b is None else (b - a) / 32)
    return out


if __name__ == "__main__":
    print("probe,ptx,sass_per_ptx")
    for name, (ptx, v) in per_copy(sys.argv[1]).items():
        print(f"{name},{ptx},{'' if v is None else f'{v:g}'}")
