#!/usr/bin/env python3
"""Which of a GEMM's re-reads L2 serves (analysis/memory/l2share) against Nsight
Compute on an H200 (two cards, named by UUID in each env.txt): the five
reference GEMMs of kernels/gemm.cu compiled at
N = 2048, 4096 and 8192 (scripts/timeprobe/gemmwave.cu), and gemm_naive with
room for 6 and 4 blocks an SM instead of 8 (scripts/timeprobe/gemmorder.cu),
each predicted by gpulint with the H200 card of gpulint verify's record and
compared with dram__bytes_read.sum (cold L2) recorded in
tests/data/timeprobe/h200/l2share and h200/blockorder. The errors are printed; the
count within 25% may not fall below WITHIN (16 of 17: gemm_vec at 8192, one
block an SM, re-reads B 46 times where its 32 waves would read it 32: its
blocks drift within the 12% of a run the L2 tolerates at that size).
(siboehm/SGEMM_CUDA's two kernels were judged here until issue 47 kept that
repository aside to check the model: they are no longer in the tree.)

usage: l2share_truth.py GPULINT SOURCE_ROOT"""
import csv
import io
import json
import os
import subprocess
import sys

GPULINT, ROOT = sys.argv[1], sys.argv[2]
DATA = os.path.join(ROOT, "tests/data/timeprobe/h200")
CARD = os.path.join(ROOT, "tests/data/verify/h200/card.ini")


def measured(path):
    text = open(path).read()
    rows = csv.DictReader(io.StringIO(text[text.index('"ID"'):]))
    out = {}
    for r in rows:
        if r["Metric Name"] == "dram__bytes_read.sum":
            out[int(r["ID"])] = float(r["Metric Value"].replace(",", ""))
    return [out[i] for i in sorted(out)]


def predicted(source, args):
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1")
    cmd = [GPULINT, source, "--gpu", CARD, "--format", "json"] + args
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if r.returncode not in (0, 1):
        sys.exit("gpulint failed: %s\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    entries = sorted((e for e in json.loads(r.stdout)["roofline"] if "read" in e["dram_bytes"]),
                     key=lambda e: e["line"])
    return [(e["kernel"], e["dram_bytes"].get("read"),
             e["dram_bytes"].get("l2_sharing", {}).get("regime")) for e in entries]


WITHIN = 16
failed = 0
checked = 0


def judge(label, pred, meas):
    global failed, checked
    name, read, regime = pred
    err = read / meas - 1
    ok = abs(err) <= 0.25
    checked += 1
    failed += not ok
    print("%s %-26s %-13s %-9s predicted %10.4g B, measured %10.4g B (%+.0f%%)" %
          ("ok  " if ok else "FAIL", label, name, regime or "-", read, meas, 100 * err))


for n in (2048, 4096, 8192):
    meas = measured(os.path.join(DATA, "l2share/gemm%d_ncu.csv" % n))
    pred = predicted("scripts/timeprobe/gemmwave.cu", ["--", "-DPROBE_N=%d" % n])
    # the five launches at their own occupancy (the others take shared
    # memory through a template gpulint does not follow)
    for i in range(5):
        judge("gemmwave N=%d" % n, pred[i], meas[i])
meas = measured(os.path.join(DATA, "blockorder/naive_ncu.csv"))
pred = predicted("scripts/timeprobe/gemmorder.cu",
                 ["--define", "six=32768", "--define", "four=46080", "--", "-Ikernels"])
judge("gemmorder 6 blocks an SM", pred[0], meas[0])
judge("gemmorder 4 blocks an SM", pred[1], meas[1])
print("%d of %d within 25%% (at least %d)" % (checked - failed, checked, WITHIN))
sys.exit(1 if checked - failed < WITHIN or checked < 17 else 0)
