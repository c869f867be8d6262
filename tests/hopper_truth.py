#!/usr/bin/env python3
"""hopper_truth: gpulint's occupancy and cluster figures for CUTLASS 3's
Hopper warp-specialised GEMM (NVIDIA/cutlass example 48 at
tests/data/hopperprobe/cutlass-commit.txt, BSD-3-Clause) against Nsight
Compute on an H200 (tests/data/hopperprobe, scripts/hopperprobe/run.sh):
the launch ncu profiled -- its block, ptxas's registers, its dynamic shared
memory and cluster size as ncu reports them -- through `gpulint occupancy
--cluster`: blocks an SM, theoretical occupancy and active warps equal
ncu's Occupancy section, active clusters its "Max Active Clusters", the
largest cluster its "Max Cluster Size". (The weight of its wgmma
m64n128k8 tf32, 32,768 FLOP a warp instruction, is tests/unit/test_imix's,
from this recording: 2 M N K over ncu's gmma warp instructions.)

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


def metrics(name):
    lines = [l for l in open(os.path.join(DATA, name)) if l.startswith('"')]
    return {r["Metric Name"]: r["Metric Value"].replace(",", "") for r in csv.DictReader(lines)
            if r["Metric Name"]}


ncu = metrics("ncu.csv")
counters = metrics("ncu-metrics.csv")
block, regs = int(ncu["Block Size"]), int(ncu["Registers Per Thread"])
dynamic, cluster = int(ncu["Dynamic Shared Memory Per Block"]), int(ncu["Cluster Size"])
env = dict(os.environ, NO_COLOR="1", GPULINT_MODELS=os.path.join(ROOT, "models"))
r = subprocess.run([GPULINT, "occupancy", "--gpu", "h200", "--threads", str(block), "--regs",
                    str(regs), "--dynamic-smem", str(dynamic), "--max-dynamic-smem", str(dynamic),
                    "--cluster", str(cluster), "--non-portable", "--format", "json"],
                   capture_output=True, text=True, env=env)
ok = check(r.returncode == 0, "gpulint occupancy for the launch ncu profiled", r.stderr[-300:])
g = json.loads(r.stdout) if ok else {"clusters": [{}]}
c = g["clusters"][0]
check(g.get("blocks_per_sm") == int(ncu["Block Limit Registers"]) == int(ncu["Block Limit Shared Mem"]),
      f"blocks an SM: gpulint {g.get('blocks_per_sm')}, ncu's register and shared memory limits "
      f"{ncu['Block Limit Registers']}, {ncu['Block Limit Shared Mem']}")
check(g.get("warps_per_sm") == int(ncu["Theoretical Active Warps per SM"]),
      f"active warps: gpulint {g.get('warps_per_sm')}, ncu {ncu['Theoretical Active Warps per SM']}")
check(abs(100 * g.get("occupancy", 0) - float(ncu["Theoretical Occupancy"])) < 0.01,
      f"theoretical occupancy: gpulint {100 * g.get('occupancy', 0):.2f}%, "
      f"ncu {ncu['Theoretical Occupancy']}%")
check(c.get("active_clusters") == int(ncu["Max Active Clusters"]),
      f"clusters of {cluster}: gpulint {c.get('active_clusters')} resident at once, "
      f"ncu's Max Active Clusters {ncu['Max Active Clusters']}")
check(c.get("largest_nonportable") == int(ncu["Max Cluster Size"]),
      f"largest cluster: gpulint {c.get('largest_nonportable')}, ncu {ncu['Max Cluster Size']}")

check.finish()
