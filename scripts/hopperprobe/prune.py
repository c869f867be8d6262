#!/usr/bin/env python3
"""prune.py RAW_DIR DEST_DIR: what scripts/hopperprobe/run.sh brought back,
made small enough to keep in tests/data/hopperprobe: per example, the
mangled names of the launches Nsight Compute profiled (kernels.txt, one a
line, its index the `kernel` column) and one CSV of the LaunchStats,
Occupancy and counter rows tests/hopper_truth.py reads (kernel, launch,
section, metric, unit, value), without the columns that repeat each
launch's 1,000-character name; run.txt, build.log, env.txt and commit.txt
are kept whole."""
import csv
import os
import shutil
import sys

RAW, DEST = sys.argv[1], sys.argv[2]
KEEP = {"Block Size", "Grid Size", "Registers Per Thread", "Static Shared Memory Per Block",
        "Dynamic Shared Memory Per Block", "Driver Shared Memory Per Block", "Cluster Size",
        "Block Limit Registers", "Block Limit Shared Mem", "Block Limit Warps", "Block Limit SM",
        "Theoretical Active Warps per SM", "Theoretical Occupancy", "Max Active Clusters",
        "Max Cluster Size", "smsp__inst_executed.sum", "sm__inst_executed_pipe_tensor_op_gmma.sum",
        "gpu__time_duration.sum", "dram__bytes_read.sum"}


def rows(path):
    if not os.path.exists(path):
        return []
    return list(csv.DictReader(l for l in open(path) if l.startswith('"')))


for top in ("env.txt", "cutlass-commit.txt", "failed.txt"):
    if os.path.exists(os.path.join(RAW, top)):
        shutil.copy(os.path.join(RAW, top), DEST)
for ex in sorted(os.listdir(RAW)):
    src = os.path.join(RAW, ex)
    if not os.path.isdir(src):
        continue
    out = os.path.join(DEST, ex)
    os.makedirs(out, exist_ok=True)
    for keep in ("run.txt", "build.log", "env.txt", "commit.txt"):
        if os.path.exists(os.path.join(src, keep)):
            shutil.copy(os.path.join(src, keep), out)
    names = []
    with open(os.path.join(out, "ncu.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "launch", "section", "metric", "unit", "value"])
        for name in ("ncu.csv", "ncu-metrics.csv"):
            for r in rows(os.path.join(src, name)):
                if r["Metric Name"] not in KEEP:
                    continue
                if r["Kernel Name"] not in names:
                    names.append(r["Kernel Name"])
                w.writerow([names.index(r["Kernel Name"]), r["ID"], r.get("Section Name", ""),
                            r["Metric Name"], r["Metric Unit"], r["Metric Value"].replace(",", "")])
    with open(os.path.join(out, "kernels.txt"), "w") as f:
        f.writelines(n + "\n" for n in names)
