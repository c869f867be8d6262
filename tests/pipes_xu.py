#!/usr/bin/env python3
"""pipes: the XU instructions per PTX instruction that tests/unit/test_pipes.c
holds gpulint's pipe table to, against Nsight Compute's measurement of each
on an H200 (tests/data/xuprobe, recorded by scripts/xuprobe/run.sh).

1. Every row of test_pipes.c's measured_xu is what the recording gives:
   (K = 48 - K = 16) / 32 of smsp__inst_executed_pipe_xu of the probe of
   that instruction (both probes of a 64-bit division, below and above
   2^32), or of the round trip of two conversions.
2. Every probe recorded has its row, unless ptxas shortens its chain
   (named below with why).

usage: pipes_xu.py REPO_ROOT. Ends with "N passed, N failed"."""
import csv
import gzip
import os
import re
import sys

ROOT = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts", "ptxprobe"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from gen import OPS  # noqa: E402
from checks import Checks  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "xuprobe")
# Probes whose chain ptxas shortens, so the recording is not the cost.
FOLDS = {
    "div_full_f32": "a division by the constant 1.5 becomes a multiply by its reciprocal",
    "div_approx_f32": "the same",
    "f32_u32": "the round trip through an unsigned integer folds away (0 instructions)",
}
check = Checks()


def per_copy(path, pattern):
    """{probe: XU warp instructions per copy} from a gzipped ncu CSV."""
    with gzip.open(path, "rt") as f:
        rows = list(csv.reader(l for l in f if l.startswith('"')))
    head = rows[0]
    ki, xi = head.index("Kernel Name"), head.index("smsp__inst_executed_pipe_xu.sum")
    by = {}
    for r in rows[1:]:
        m = re.match(pattern, r[ki])
        if m:
            by.setdefault(m.group("name"), {})[int(m.group("k"))] = float(r[xi].replace(",", ""))
    return {n: (v[48] - v[16]) / 32 for n, v in by.items() if 16 in v and 48 in v}


src = open(os.path.join(ROOT, "tests", "unit", "test_pipes.c")).read()
rows = {op: float(v) for op, v in re.findall(r'\{"([a-z0-9. ]+)",\s*([0-9.]+)\}', src)}
check(len(rows) > 30, f"{len(rows)} rows in test_pipes.c's measured_xu")

measured = {}  # PTX (or "PTX PTX") -> [(probe, XU per copy)]
single = per_copy(os.path.join(DATA, "ptx_xu.csv.gz"), r"k_(?P<k>\d+)_(?P<name>\w+)\(")
ptx_of = {name: ptx for name, ptx, *_ in OPS}
for name, v in single.items():
    measured.setdefault(ptx_of.get(name, "?" + name), []).append((name, v))
probe_src = open(os.path.join(ROOT, "scripts", "xuprobe", "xuprobe.cu")).read()
pairs = {m[0]: f"{m[1]} {m[2]}" for m in
         re.findall(r'PAIR_KERNEL\((\w+), \w+, "([^"]+)", "\w", "([^"]+)"', probe_src)}
trips = per_copy(os.path.join(DATA, "xu.csv.gz"), r"void (?P<name>\w+)<(?P<k>\d+)>")
for name, v in trips.items():
    measured.setdefault(pairs.get(name, "?" + name), []).append((name, v))

for op, v in sorted(rows.items()):
    probes = measured.get(op, [])
    check(bool(probes) and all(m == v for _, m in probes),
          f"{op}: table {v:g} XU, measured {', '.join(f'{n} {m:g}' for n, m in probes) or 'none'}")
for op, probes in sorted(measured.items()):
    for name, m in probes:
        if name not in FOLDS:
            check(op in rows, f"{name} ({op}, {m:g} XU a copy) has its row")
check.finish()
