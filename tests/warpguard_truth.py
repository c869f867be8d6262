#!/usr/bin/env python3
"""A block-stride loop that only some warps of a block run, against Nsight
Compute on an H200 (scripts/timeprobe/warpguard.cu, recorded in
tests/data/timeprobe/h200/warpguard by warpguard.sh at the card's own
clocks): wg_all with every thread, wg_upper with threads 256-511 (a
runtime stride nvcc does not unroll), wg_lower with threads 0-255 (a
constant stride: ptxas issues sixteen iterations' loads before their
in-place stores, warpguard.sass), wg_odd with the odd warps. Each
predicted time (gpulint --gpu h200) must be within 25% of the measured
one. Before loadlat summed every warp's sectors, wg_upper was predicted
at 12.9 us (the first warp, which loads nothing, taken for all); before
an in-place store let the unrolled copies' loads go out together,
wg_lower at 144 us.

usage: warpguard_truth.py GPULINT SOURCE_ROOT"""
import csv
import io
import json
import os
import subprocess
import sys

GPULINT, ROOT = sys.argv[1], sys.argv[2]
DATA = os.path.join(ROOT, "tests/data/timeprobe/h200/warpguard/ncu.csv")

text = open(DATA).read()
measured = {}
for r in csv.DictReader(io.StringIO(text[text.index('"ID"'):])):
    if r["Metric Name"] == "gpu__time_duration.sum":
        measured[r["Kernel Name"].split("(")[0]] = float(r["Metric Value"].replace(",", "")) * 1e-9

env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C",
           GPULINT_MODELS=os.path.join(ROOT, "models"))
cmd = [GPULINT, "scripts/timeprobe/warpguard.cu", "--gpu", "h200", "--format", "json"]
r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
if r.returncode != 0:
    sys.exit("gpulint failed: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
predicted = {}
for k in json.loads(r.stdout)["kernels"]:
    for launch in k.get("launches", []):
        predicted[launch["kernel"]] = (launch.get("time") or {}).get("predicted_s")

failed = 0
for name in ("wg_all", "wg_upper", "wg_lower", "wg_odd"):
    m, p = measured.get(name), predicted.get(name)
    ok = m is not None and p is not None and abs(p / m - 1) <= 0.25
    failed += not ok
    print("%s %-9s measured %8.2f us, predicted %s" %
          ("ok  " if ok else "FAIL", name, (m or 0) * 1e6,
           "%8.2f us (%+.0f%%)" % (p * 1e6, 100 * (p / m - 1)) if p and m else "none"))
print("%d passed, %d failed" % (4 - failed, failed))
sys.exit(1 if failed else 0)
