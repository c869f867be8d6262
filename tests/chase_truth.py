#!/usr/bin/env python3
"""Loads whose address waits on another load's data, against Nsight
Compute on an H100 SXM (scripts/timeprobe/chaseprobe.cu, recorded in
tests/data/timeprobe/h100/chase by chaseprobe.sh at the card's own
clocks): ch_indep reads idx and data side by side, ch_gather reads data
at the index it read from idx, ch_gather2 follows idx twice first; the
same data sectors in all three, one warp an SM and eight. Each predicted
time (gpulint --gpu h100-sxm) is set against the measured one; the test
fails when fewer than RECORDED are within 25%. Before a gather opened a
load phase of its own (stop 99) the four gather launches were predicted
50% to 56% short: 1 of 6 within 25%; since, 5 of 6 (ch_indep at eight
warps an SM is -32%, a miss of the independent loads' own time).

usage: chase_truth.py GPULINT SOURCE_ROOT"""
import csv
import io
import json
import os
import subprocess
import sys

GPULINT, ROOT = sys.argv[1], sys.argv[2]
DATA = os.path.join(ROOT, "tests/data/timeprobe/h100/chase/ncu.csv")
RECORDED = 5


def threads(block):
    x, y, z = (int(v) for v in block.strip("()").split(","))
    return x * y * z


text = open(DATA).read()
measured = {}
for r in csv.DictReader(io.StringIO(text[text.index('"ID"'):])):
    if r["Metric Name"] == "gpu__time_duration.sum":
        key = (r["Kernel Name"].split("(")[0], threads(r["Block Size"]))
        measured[key] = float(r["Metric Value"].replace(",", "")) * 1e-9

env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C",
           GPULINT_MODELS=os.path.join(ROOT, "models"))
cmd = [GPULINT, "scripts/timeprobe/chaseprobe.cu", "--gpu", "h100-sxm", "--format", "json"]
r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
if r.returncode != 0:
    sys.exit("gpulint failed: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
predicted = {}
for k in json.loads(r.stdout)["kernels"]:
    for launch in k.get("launches", []):
        block = launch.get("block") or [0]
        n = 1
        for v in block if isinstance(block, list) else [block]:
            n *= int(v)
        predicted[(launch["kernel"], n)] = (launch.get("time") or {}).get("predicted_s")

failed = total = 0
for key in sorted(measured):
    m, p = measured[key], predicted.get(key)
    ok = p is not None and abs(p / m - 1) <= 0.25
    total += 1
    failed += not ok
    print("%s %-10s %3d threads: measured %8.2f us, predicted %s" %
          ("ok  " if ok else "miss", key[0], key[1], m * 1e6,
           "%8.2f us (%+.0f%%)" % (p * 1e6, 100 * (p / m - 1)) if p else "none"))
within = total - failed
ok = total == 6 and within >= RECORDED
print("%s %d of %d launches within 25%%, at least the %d recorded" %
      ("ok  " if ok else "FAIL", within, total, RECORDED))
print("%d passed, %d failed" % (1 if ok else 0, 0 if ok else 1))
sys.exit(0 if ok else 1)
