#!/usr/bin/env python3
"""maxnreg_truth: gpulint's setmaxnreg analysis (analysis/occupancy/occ_maxnreg)
against which warp-specialised blocks an H200 finished and which never did
(tests/data/maxnregprobe, recorded by scripts/maxnregprobe/run.sh).

Each probe kernel's name says its shape: W warpgroups, warpgroup 0 lowering
to LOW (none: 0), the next RAISED raising to HIGH, the rest keeping what
the launch reserved. For every kernel:
1. gpulint's reserved registers a thread equal ptxas's (build.log), and its
   warpgroups, raise_to and lower_to are the kernel's;
2. the PTX ISA's pool rule with gpulint's reservation -- LOW + RAISED x HIGH
   + the rest x reserved <= W x reserved -- says finished or hung as the
   card did;
3. gpulint's bound holds: a kernel raising more warpgroups than gpulint's
   most_raised hung, and where gpulint says no raise can be granted (an
   error) the kernel hung.

usage: maxnreg_truth.py GPULINT SOURCE_ROOT. Ends with "N passed, N failed";
exit 77 without nvcc (gpulint compiles the probe for sm_90a)."""
import json
import os
import re
import subprocess
import sys

GPULINT, ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import Checks, skip_without_nvcc  # noqa: E402

skip_without_nvcc()
DATA = os.path.join(ROOT, "tests", "data", "maxnregprobe")
SOURCE = os.path.join(ROOT, "scripts", "maxnregprobe", "maxnregprobe.cu")
check = Checks()

measured = {}
for line in open(os.path.join(DATA, "maxnregprobe.csv")):
    kind, name, outcome, _ms = line.strip().split(",")
    if kind == "maxnreg":
        measured[name] = outcome
ptxas = {}
build = open(os.path.join(DATA, "build.log")).read()
for block in build.split("Compiling entry function")[1:]:
    name = re.match(r" '_Z\d+(\w+?)PfPKfi'", block)
    regs = re.search(r"Used (\d+) registers", block)
    if name and regs:
        ptxas[name.group(1)] = int(regs.group(1))

env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1",
           GPULINT_MODELS=os.path.join(ROOT, "models"))
r = subprocess.run([GPULINT, SOURCE, "--arch", "sm_90a", "--format", "json"], capture_output=True,
                   text=True, env=env, cwd=ROOT)
check(r.returncode == 0, "gpulint reads the probe for sm_90a", r.stderr[-500:])
report = json.loads(r.stdout) if r.returncode == 0 else {"kernels": [], "findings": []}
launches = {l["kernel"]: l for k in report["kernels"] for l in k.get("launches", [])}
errors = {f["line"] for f in report["findings"]
          if f["check"] == "gpulint-setmaxnreg" and f["severity"] == "error"}

for name, outcome in sorted(measured.items()):
    w, low, raised, high = re.fullmatch(
        r"w(\d)_(?:low(\d+)|none)_(one|two|three)(\d+)", name).groups()
    w, low, high = int(w), int(low or 0), int(high)
    raised = {"one": 1, "two": 2, "three": 3}[raised]
    l = launches.get(name)
    m = l and l.get("setmaxnreg")
    if not check(bool(m), f"{name}: gpulint's setmaxnreg at its launch", str(l)[:300]):
        continue
    check(m["reserved"] == ptxas.get(name) and m["warpgroups"] == w and m["raise_to"] == high
          and m["lower_to"] == low,
          f"{name}: reserved {m['reserved']} (ptxas {ptxas.get(name)}), {m['warpgroups']} "
          f"warpgroups, up to {m['raise_to']}, down to {m['lower_to']}")
    keep = w - raised - (1 if low else 0)
    demand = low + raised * high + keep * m["reserved"]
    pool = w * m["reserved"]
    rule = "finished" if demand <= pool else "hung"
    check(rule == outcome, f"{name}: pool rule {demand} of {pool} registers a lane -> {rule}; "
          f"the H200 {outcome}")
    if raised > m["most_raised"]:
        check(outcome == "hung", f"{name}: raises {raised} warpgroups, gpulint's most "
              f"{m['most_raised']}: it must hang; it {outcome}")
    if l["line"] in errors:
        check(outcome == "hung", f"{name}: gpulint's error (no raise granted); it {outcome}")
check(len(measured) == 8, f"{len(measured)} kernels recorded")
check.finish()
