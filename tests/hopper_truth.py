#!/usr/bin/env python3
"""hopper_truth: gpulint's occupancy and cluster figures for CUTLASS 3 /
CuTe Hopper kernels (NVIDIA/cutlass examples 48, 49, 50, 54, 57 and 88 at
tests/data/hopperprobe/cutlass-commit.txt) and FlashAttention-3's forward
kernel (fa3_fwd/commit.txt; both BSD-3-Clause) against Nsight Compute on an
H200 (tests/data/hopperprobe, recorded by scripts/hopperprobe/run.sh and
scripts/fa3probe/run.sh, pruned by scripts/hopperprobe/prune.py).

Each launch ncu profiled -- its block, registers, dynamic shared memory and
cluster size as ncu reports them -- goes through `gpulint occupancy
--cluster`: blocks an SM must equal the least of ncu's block limits,
active warps and theoretical occupancy its Occupancy section, active
clusters its "Max Active Clusters", the largest cluster its "Max Cluster
Size". Launches of one kernel with the same configuration are judged once.
(That gpulint reads each example's file and finds every profiled kernel
with ptxas's registers is benchmarks/HOPPER.md's, run where CUTLASS is.)

usage: hopper_truth.py GPULINT SOURCE_ROOT. Ends with "N passed, N failed"."""
import csv
import json
import os
import subprocess
import sys

GPULINT, ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import Checks  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "hopperprobe")
check = Checks()
env = dict(os.environ, NO_COLOR="1", GPULINT_MODELS=os.path.join(ROOT, "models"))


def launches(example):
    """{(kernel, launch): {metric: value}} of one example's recording."""
    out = {}
    with open(os.path.join(DATA, example, "ncu.csv"), newline="") as f:
        for r in csv.DictReader(f):
            out.setdefault((int(r["kernel"]), int(r["launch"])), {})[r["metric"]] = r["value"]
    return out


def judge(example, kernel, m):
    block, regs = int(m["Block Size"]), int(m["Registers Per Thread"])
    dynamic, cluster = int(m["Dynamic Shared Memory Per Block"]), int(m["Cluster Size"])
    what = f"{example} kernel {kernel} ({block} threads, {regs} registers, {dynamic} B, cluster {cluster})"
    # ncu's cluster size 0: a launch without clusters (no cluster figures to judge)
    args = ["--cluster", str(cluster), "--non-portable"] if cluster else []
    r = subprocess.run([GPULINT, "occupancy", "--gpu", "h200", "--threads", str(block), "--regs",
                        str(regs), "--dynamic-smem", str(dynamic), "--max-dynamic-smem", str(dynamic),
                        *args, "--format", "json"], capture_output=True, text=True, env=env)
    if not check(r.returncode == 0, f"{what}: gpulint occupancy runs", r.stderr[-300:]):
        return
    g = json.loads(r.stdout)
    limit = min(int(m[k]) for k in ("Block Limit Registers", "Block Limit Shared Mem",
                                    "Block Limit Warps", "Block Limit SM"))
    check(g.get("blocks_per_sm") == limit,
          f"{what}: blocks an SM gpulint {g.get('blocks_per_sm')}, ncu's least limit {limit}")
    check(g.get("warps_per_sm") == int(m["Theoretical Active Warps per SM"]),
          f"{what}: active warps gpulint {g.get('warps_per_sm')}, "
          f"ncu {m['Theoretical Active Warps per SM']}")
    check(abs(100 * g.get("occupancy", 0) - float(m["Theoretical Occupancy"])) < 0.01,
          f"{what}: theoretical occupancy gpulint {100 * g.get('occupancy', 0):.2f}%, "
          f"ncu {m['Theoretical Occupancy']}%")
    if not cluster:
        return
    c = g["clusters"][0]
    check(c.get("active_clusters") == int(m["Max Active Clusters"]),
          f"{what}: clusters resident at once gpulint {c.get('active_clusters')}, "
          f"ncu's Max Active Clusters {m['Max Active Clusters']}")
    check(c.get("largest_nonportable") == int(m["Max Cluster Size"]),
          f"{what}: largest cluster gpulint {c.get('largest_nonportable')}, "
          f"ncu {m['Max Cluster Size']}")


examples = sorted(e for e in os.listdir(DATA) if os.path.isfile(os.path.join(DATA, e, "ncu.csv")))
check(len(examples) >= 7, f"{len(examples)} Hopper programs recorded", "expected 7")
for example in examples:
    seen = set()
    for (kernel, _), m in sorted(launches(example).items()):
        key = (kernel, m["Block Size"], m["Registers Per Thread"],
               m["Dynamic Shared Memory Per Block"], m["Cluster Size"])
        if key not in seen:
            seen.add(key)
            judge(example, kernel, m)

check.finish()
