#!/usr/bin/env python3
"""ncu-sass-prune: keep the shared-memory instructions of an Nsight Compute
source-page export (`ncu -i REP --page source --csv --print-source cuda,sass`)
as one small CSV, for tests/data/ncu/<device>/sass-<example>.csv.

usage: ncu-sass-prune.py SOURCE_PAGE.csv > sass-<example>.csv

Output columns: kernel, launch (0-based, in profiling order), file (base
name), line, address, sass, op (load/store), bits (access size),
inst (warp-level executions, predicated-off ones included), wavefronts
(L1 Wavefronts Shared) and ideal (L1 Wavefronts Shared Ideal). Both wavefront
columns come from SASS patching: Nsight Compute computes them from the
addresses each execution used, so they describe the access pattern and not
the data-stage arbitration the hardware counters also see.

The cuda,sass view prints an instruction once per source line it belongs to
and can repeat a block; instructions are kept once per launch (by address)."""
import csv
import os
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ncu-sass-prune.py SOURCE_PAGE.csv")
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["kernel", "launch", "file", "line", "address", "sass", "op", "bits", "inst",
                  "wavefronts", "ideal"])
    path = None
    head = None
    func = None
    launch = -1
    launch_paths = set()
    seen = set()
    line = None
    with open(sys.argv[1], newline="") as f:
        for row in csv.reader(f):
            if not row:
                continue
            if row[0] == "File Path":
                path = row[1]
                continue
            if row[0] == "Function Name":
                # ncu prints, per launch, one block per source file of the
                # kernel: a new launch starts where the kernel changes or one
                # of its files comes round again.
                if row[1] != func or path in launch_paths:
                    launch = launch + 1 if row[1] == func else 0
                    launch_paths = set()
                func = row[1]
                launch_paths.add(path)
                head = None
                continue
            if row[0] == "Line No":
                head = {}
                for i, h in enumerate(row):
                    head.setdefault(h, []).append(i)
                continue
            if head is None:
                continue
            if row[0]:
                line = row[0]
                continue
            col = lambda name, k=0: row[head[name][k]]
            if col("Address Space") != "Shared":
                continue
            addr = col("Address")
            key = (func, launch, addr)
            if key in seen:
                continue
            seen.add(key)
            out.writerow([func, launch, os.path.basename(path or ""), line, addr,
                          col("Source", 1).strip(), col("Access Operation").lower(),
                          col("Access Size"), num(col("Instructions Executed")),
                          num(col("L1 Wavefronts Shared")), num(col("L1 Wavefronts Shared Ideal"))])


def num(s):
    return int(s.replace(",", "")) if s not in ("", "-") else 0


if __name__ == "__main__":
    main()
