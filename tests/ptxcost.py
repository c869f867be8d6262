#!/usr/bin/env python3
"""ptxcost: the SASS warp instructions one PTX instruction executes, as
src/analysis/timing/ptxcost.c has them, against Nsight Compute's
measurement of each on an H200 (tests/data/ptxprobe, recorded by
scripts/ptxprobe/run.sh).

1. Every row of the table is what scripts/ptxprobe/table.py derives from
   the recording (both probes of a 64-bit division, below and above 2^32,
   where there are two).
2. Every probe measured at other than one instruction per copy has its
   row, unless the chain folds (named below with why).

usage: ptxcost.py REPO_ROOT. Ends with "N passed, N failed"."""
import os
import re
import sys

ROOT = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts", "ptxprobe"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import table  # noqa: E402
from checks import Checks  # noqa: E402

# Probes whose chain ptxas shortens, so the measurement is below the cost.
FOLDS = {"add_u32": "x + y + y + ... folds into fewer additions"}
check = Checks()

src = open(os.path.join(ROOT, "src", "analysis", "timing", "ptxcost.c")).read()
# the table from this recording; measured_pipeprobe is tests/pipes_probe.py's
src = src[src.index("measured[] = {"):src.index("};", src.index("measured[] = {"))]
rows = {op: float(v) for op, v in re.findall(r'\{"([a-z0-9.]+)",\s*([0-9.]+)\}', src)}
check(len(rows) > 20, f"{len(rows)} rows in ptxcost.c")
measured = table.per_copy(os.path.join(ROOT, "tests", "data", "ptxprobe", "ncu.csv"))
for op, v in sorted(rows.items()):
    probes = {n: m for n, (ptx, m) in measured.items() if ptx == op}
    check(bool(probes) and all(m == v for m in probes.values()),
          f"{op}: table {v:g}, measured {', '.join(f'{n} {m:g}' for n, m in probes.items()) or 'none'}")
for name, (ptx, m) in measured.items():
    if m is not None and m != 1 and name not in FOLDS:
        check(ptx in rows, f"{name} ({ptx}, {m:g} per copy) has its row")
check.finish()
