#!/usr/bin/env python3
"""pipes: the pipe of each probed PTX instruction that tests/unit/test_pipes.c
holds gpulint's pipes (analysis/timing/pipes) to, against Nsight Compute's
smsp__inst_executed_pipe_* on an H200 (tests/data/pipeprobe, recorded by
scripts/pipeprobe/run.sh).

1. Every row of test_pipes.c's measured_pipes is what the recording gives
   per copy: all warp instructions, ALU, FMA-heavy, FP64 and XU; the rest
   is FMA-lite.
2. Every probe recorded has its row, with the PTX gen.py gave it (and the
   separator named where it stays: the integer adds' xor).

usage: pipes_probe.py REPO_ROOT. Ends with "N passed, N failed"."""
import os
import re
import sys

ROOT = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts", "pipeprobe"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from gen import OPS, TYPES  # noqa: E402
from table import per_copy  # noqa: E402
from checks import Checks  # noqa: E402

check = Checks()
measured = per_copy(os.path.join(ROOT, "tests", "data", "pipeprobe", "pipes.csv.gz"),
                    os.path.join(ROOT, "scripts", "pipeprobe", "gen.py"))
check(len(measured) == len(OPS), f"{len(measured)} of gen.py's {len(OPS)} probes recorded")

src = open(os.path.join(ROOT, "tests", "unit", "test_pipes.c")).read()
row_re = (r'\{"(\w+)", "([a-z0-9. ]+)", ([0-9.]+), ([0-9.]+), ([0-9.]+), ([0-9.]+), '
          r'([0-9.]+),\s*(?:NULL|"[^"]*")\s*\}')
rows = {m[0]: (m[1], [float(x) for x in m[2:]]) for m in re.findall(row_re, src)}
check(len(rows) >= 30, f"{len(rows)} rows in test_pipes.c's measured_pipes")


def ptx_words(body):
    """The PTX mnemonics of one copy's asm, in order ("setp.lt.s32 selp.s32")."""
    return " ".join(w for w in re.findall(r"(?:^|[;{]\s*)([a-z][a-z0-9.]+) ", body)
                    if w not in (".reg",))


for name, ptx, kind in OPS:
    v = measured.get(name)
    if name not in rows or v is None:
        check(False, f"{name} has its row and its recording")
        continue
    text, (all_, alu, heavy, fp64, xu) = rows[name]
    sep = TYPES[kind][2]
    # a separator that folds alone (x ^ y ^ y) stays in the probe's count
    want = ptx_words(ptx) + (" " + ptx_words(sep) if kind.endswith("x") else "")
    check(text == want, f"{name}: the row names {text!r}, the probe runs {want!r}")
    got = (v.get("all", 0), v.get("alu", 0), v.get("fmaheavy", 0), v.get("fp64", 0),
           v.get("xu", 0))
    check(all(abs(a - b) < 0.01 for a, b in zip(got, (all_, alu, heavy, fp64, xu))),
          f"{name}: table {all_:g} all, {alu:g} ALU, {heavy:g} FMA-heavy, {fp64:g} FP64, "
          f"{xu:g} XU; measured {', '.join(f'{x:g}' for x in got)}")
    lite = all_ - alu - heavy - fp64 - xu
    check(abs(lite - v.get("fmalite", 0)) < 0.01,
          f"{name}: the rest, {lite:g}, is FMA-lite (measured {v.get('fmalite', 0):g})")
check.finish()
