#!/usr/bin/env python3
"""ncu-source.py: on the GPU machine, Nsight Compute's executed warp
instructions for each SASS instruction (the SourceCounters section's source
page) of the first launch of chosen kernels of the HeCBench programs in
tests/data/hecbench/src: where a count from the PTX misses, which SASS
instructions it misses.

    OUT=DIR python3 scripts/hecbench/ncu-source.py PROGRAM:KERNEL_REGEX ...

Each program is built as tests/data/hecbench/programs.json has it (its
sources and flags, -lineinfo added) and run from its directory with its
arguments; each kernel's page goes to $OUT/PROGRAM.KERNEL.csv.gz, the card
and the commands to $OUT/env.txt."""
import gzip
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "hecbench")
OUT = os.environ["OUT"]
programs = json.load(open(os.path.join(DATA, "programs.json")))["programs"]
env = open(os.path.join(OUT, "env.txt"), "w")
env.write(subprocess.run(["nvidia-smi", "--query-gpu=name,uuid,driver_version,clocks.sm,"
                          "clocks.max.sm", "--format=csv"], capture_output=True,
                         text=True).stdout)
env.write(subprocess.run(["ncu", "--version"], capture_output=True, text=True).stdout)
built = {}
for pair in sys.argv[1:]:
    name, kernel = pair.split(":", 1)
    p = programs[name]
    src = os.path.join(DATA, "src", name)
    exe = f"/tmp/ncusrc-{name}"
    if name not in built:
        units = [s for s in p["sources"] if s.endswith((".cu", ".cpp", ".cc"))]
        cmd = ["nvcc", *p["cflags"].split(), "-lineinfo", "-o", exe, *units]
        r = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
        env.write(f"{name}: {' '.join(cmd)}: exit {r.returncode}\n{r.stderr[-2000:]}")
        built[name] = r.returncode == 0
    if not built[name]:
        continue
    cmd = ["ncu", "--clock-control", "none", "--kernel-name", f"regex:{kernel}",
           "--launch-count", "1", "--section", "SourceCounters", "--page", "source",
           "--print-source", "sass", "--csv", exe, *p["args"]]
    r = subprocess.run(cmd, cwd=src, capture_output=True, text=True, timeout=300)
    env.write(f"{name} {kernel}: {' '.join(cmd)}: exit {r.returncode}\n")
    safe = re.sub(r"[^A-Za-z0-9_]", "_", kernel)
    with gzip.open(os.path.join(OUT, f"{name}.{safe}.csv.gz"), "wt") as f:
        f.write(r.stdout)
env.close()
