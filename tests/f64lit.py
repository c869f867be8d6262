#!/usr/bin/env python3
"""What ptxas makes of a double literal, as gpulint counts it from the PTX,
against scripts/ptxprobe/f64lit.cu's recording (tests/data/ptxprobe/f64lit):

1. On sm_90, each launch's warp instructions (gpulint's JSON, roofline
   "issue") against Nsight Compute's smsp__inst_executed on an H100: the
   straight-line kernels exactly, but setp_wide within one (ptxas makes its
   four selp-and-add pairs eight SELs, IADD3s and predicated moves, not
   seven: a lowering of the integer sum, not of the literals); the loops
   of 101 trips within 3% (their one-trip launches run only the remainder
   of a loop nvcc unrolled by four, which the count takes as a pass of the
   unrolled body).
2. On each architecture recorded (sm_80 .. sm_120), what the literals
   cost, from twin kernels that differ in them alone, where each
   instruction runs once a warp: horner_wide's eight coefficients that do
   not fit a 32-bit literal against horner_round's that do (nothing before
   sm_90, where they come from the constant bank; two UMOVs each on sm_90
   and sm_100, one UMOV.64 on sm_120), and horner_round's second literal
   of one instruction, a double's register pair, against horner_float's,
   one register. The difference gpulint predicts must be the SASS
   listings' (the kernels' prologues differ by architecture, which the
   PTX count takes from sm_90, so the totals are not compared).

3. scripts/ptxprobe/f64lit2.cu on sm_90 (tests/data/ptxprobe/f64lit2):
   which of two literals an instruction keeps, written in one fma or in a
   mul fused into the sub that reads it. The straight-line kernels
   exactly; the loops of 101 trips within 3% (ptxas keeps the pair of
   loop_*_fit before the loop where fuseprobe's is made again each pass,
   and the count takes it a pass).
usage: f64lit.py GPULINT REPO_ROOT. Ends with "N passed, N failed"; exit 77
without nvcc."""
import csv
import gzip
import io
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402

GPULINT, ROOT = sys.argv[1], sys.argv[2]
PROBE = os.path.join(ROOT, "scripts", "ptxprobe", "f64lit.cu")
DATA = os.path.join(ROOT, "tests", "data", "ptxprobe", "f64lit")
# A card of each architecture the recording has SASS of.
CARDS = {80: "a100-sxm4-80gb", 86: "rtx-3090", 89: "rtx-4090", 90: "h100-sxm", 100: "b200",
         120: "rtx-5060-ti"}
check = Checks()


def predicted(gpu, probe=PROBE):
    """(kernel, warp instructions) per launch, in the order main makes them."""
    r = subprocess.run([GPULINT, probe, "--gpu", gpu, "--format", "json"], capture_output=True,
                       text=True, timeout=600)
    if r.returncode != 0:
        return None, r.stderr
    out = []
    for row in json.loads(r.stdout)["roofline"]:
        name = re.sub(r"\(.*", "", row.get("kernel", ""))
        out.append((name, (row.get("issue") or {}).get("warp_instructions")))
    return out, ""


def measured(data=DATA):
    text = open(os.path.join(data, "ncu.csv")).read().splitlines()
    head = next(i for i, line in enumerate(text) if line.startswith('"ID"'))
    return [(re.sub(r"\(.*", "", row["Kernel Name"]),
             float(row["Metric Value"].replace(",", "")))
            for row in csv.DictReader(io.StringIO("\n".join(text[head:])))
            if row["Metric Name"] == "smsp__inst_executed.sum"]


def sass_counts(sm):
    """Instructions of each kernel of the listing, but the NOPs that pad it
    and the branch to itself after EXIT: what one warp executes of a kernel
    without branches."""
    counts, name = {}, None
    with gzip.open(os.path.join(DATA, f"sass_sm{sm}.txt.gz"), "rt") as f:
        for line in f:
            m = re.search(r"Function : _Z\d+(\w+?)P", line)
            if m:
                name = m.group(1)
                counts[name] = 0
                continue
            m = re.match(r"\s+/\*([0-9a-f]{4})\*/\s+([^;]*);", line)
            if m and name:
                text = m.group(2).strip()
                if text == "NOP" or re.fullmatch(r"BRA 0x" + m.group(1).lstrip("0") + "?", text):
                    continue
                counts[name] += 1
    return counts


skip_without_nvcc()
got, err = predicted(CARDS[90])
check(got is not None, "gpulint runs on the probe (h100-sxm)", err)
want = measured()
check(got is not None and len(got) == len(want), "one row per measured launch",
      f"{len(got or [])} predicted, {len(want)} measured")
for (kernel, p), (mk, m) in zip(got or [], want):
    loop = kernel.startswith("loop_")
    if loop and m < 200:
        continue  # the remainder loop alone (see above)
    tol = 0.03 * m if loop else 1 if kernel == "setp_wide" else 0
    check(kernel == mk and p is not None and abs(p - m) <= tol,
          f"sm_90 {mk}: predicted {p}, measured {m:g}")

got2, err = predicted(CARDS[90], os.path.join(ROOT, "scripts", "ptxprobe", "f64lit2.cu"))
check(got2 is not None, "gpulint runs on f64lit2 (h100-sxm)", err)
want2 = measured(DATA + "2")
check(got2 is not None and len(got2) == len(want2), "f64lit2: one row per measured launch",
      f"{len(got2 or [])} predicted, {len(want2)} measured")
# gpulint's rows come a kernel's launches together; match each kernel's
# launches in the order main makes them.
by_kernel = {}
for kernel, p in got2 or []:
    by_kernel.setdefault(kernel, []).append(p)
for mk, m in want2:
    p = by_kernel.get(mk, [None]).pop(0) if by_kernel.get(mk) else None
    loop = mk.startswith("loop_")
    if loop and m < 200:
        continue
    tol = 0.03 * m if loop else 0
    check(p is not None and abs(p - m) <= tol, f"f64lit2 sm_90 {mk}: predicted {p}, measured {m:g}")
for sm, gpu in CARDS.items():
    counts = sass_counts(sm)
    got, err = predicted(gpu)
    if not check(got is not None, f"gpulint runs on the probe ({gpu})", err):
        continue
    first = {}
    for kernel, p in got:
        first.setdefault(kernel, p)
    for a, b in [("horner_wide", "horner_round"), ("horner_round", "horner_float")]:
        pa, pb = first.get(a), first.get(b)
        p = pa - pb if pa is not None and pb is not None else None
        s = counts.get(a, 0) - counts.get(b, 0)
        check(p == s, f"sm_{sm} {a} - {b}: predicted {p}, SASS {s}")
check.finish()
