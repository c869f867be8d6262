#!/usr/bin/env python3
"""mathcost: divisions and math calls counted as the instructions nvcc
compiles them into, against Nsight Compute's measurement of each on an
H100 (tests/data/mathprobe, recorded by scripts/mathprobe/run.sh).

1. The table in src/analysis/timing/mathcost.c is what scripts/mathprobe/table.py
   derives from the recorded counters (no row edited by hand).
2. gpulint's per-thread FP32 and FP64 FLOPs of every kernel of
   scripts/mathprobe/mathprobe.cu, in each of the four flag sets the probe
   was measured with, equal the measured FLOPs per thread (rounded down
   where a call's cost depends on its argument, which the report must then
   say in flops_estimate). The composite kernel (sigmoid: a reciprocal, an
   expf and an addition) checks that costs add up in an expression.

usage: mathcost.py GPULINT REPO_ROOT. Ends with "N passed, N failed"."""
import json
import math
import os
import re
import subprocess
import sys

GPULINT, ROOT = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts", "mathprobe"))
import table  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "mathprobe")
FLAGS = {"default": [], "ftz": ["-ftz=true"], "approx": ["-prec-div=false", "-prec-sqrt=false"],
         "fast": ["--use_fast_math"]}
# Kernels whose measured instructions a source count cannot see, and why.
KNOWN = {
    "fabsf": "fabsf alone compiles to an FADD with an absolute-value operand (1 FLOP); in "
             "arithmetic it is an operand modifier and costs nothing, so gpulint counts 0",
}
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what)


res = table.costs(DATA)
derived = set(table.c_rows(res))
src = open(os.path.join(ROOT, "src", "analysis", "timing", "mathcost.c")).read()
in_c = [l.rstrip() for l in src.splitlines() if re.match(r'\s*\{"\w+", (32|64), \{\{', l)]
check(len(in_c) > 40, "mathcost.c has its table (%d rows)" % len(in_c))
for row in in_c:
    check(row in derived, "row of mathcost.c not derived from the recorded data: " + row.strip())
# Left out of the table on purpose: plain arithmetic, the composite check,
# and calls that cost nothing or an operand modifier in real expressions.
LEFT_OUT = {"add", "mul", "sigmoid", "fabsf", "fminf", "fmaxf", "floorf", "div_pow2"}
for row in derived:
    op = re.match(r'\s*\{"(\w+)"', row).group(1)
    check(op in LEFT_OUT or row in in_c, "measured operation missing from mathcost.c: " + op)

probe = os.path.join(ROOT, "scripts", "mathprobe", "mathprobe.cu")
env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C")
for mode, flags in FLAGS.items():
    col = table.MODES.index(mode)
    p = subprocess.run([GPULINT, probe, "--format", "json", "--"] + flags, capture_output=True,
                       text=True, env=env, timeout=600)
    check(p.returncode == 0, "%s: gpulint exit %d: %s" % (mode, p.returncode, p.stderr[-300:]))
    if p.returncode:
        continue
    roof = {r["kernel"]: r for r in json.loads(p.stdout)["roofline"]}
    for (prec, op), cells in res.items():
        name = ("f_" if prec == "f32" else "d_") + op
        r = roof.get(name)
        check(r is not None, "%s: no roofline entry for %s" % (mode, name))
        if r is None or op in KNOWN:
            continue
        lo32, hi32, lo64, hi64 = cells[col]
        want = (math.floor(lo32 + 1e-9), math.floor(lo64 + 1e-9))
        got = (r["flops"]["fp32"], r["flops"]["fp64"])
        check(got == want, "%s %s: gpulint FP32/FP64 %s per thread, measured %s" %
              (mode, name, got, (lo32, lo64) if lo32 == hi32 and lo64 == hi64 else cells[col]))
        varies = hi32 > lo32 or hi64 > lo64
        check(varies == ("flops_estimate" in r),
              "%s %s: flops_estimate %s but the measured cost %s" %
              (mode, name, "present" if "flops_estimate" in r else "absent",
               "varies" if varies else "is fixed"))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
