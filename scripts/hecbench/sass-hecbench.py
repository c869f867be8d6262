#!/usr/bin/env python3
"""On the GPU machine: the SASS of every HeCBench program of the truth set,
as test fixtures for what needs each instruction's pipe (CI has no
nvdisasm).

usage: OUT=DIR python3 scripts/hecbench/sass-hecbench.py

Each source of tests/data/hecbench/programs.json is compiled from its own
directory as tests/hecbench_truth.py hands it to gpulint (the Makefile's
flags that change device code, sm_90 for the H200), with -lineinfo, to a
cubin, and listed by `nvdisasm -c -gi` (code sections, each instruction's
source line and the lines it was inlined at). $OUT/hecbench-sass.tar.xz
holds NAME/SOURCE.sass; $OUT/sass.log the tools' versions and each
compile's outcome.
"""

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from hecbench_flags import nvcc_args  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "hecbench")
OUT = os.environ["OUT"]


def one(job):
    name, src, flags, tmp = job
    where = os.path.join(DATA, "src", name)
    cubin = os.path.join(tmp, f"{name}__{src}.cubin")
    r = subprocess.run(["nvcc", "-arch=sm_90", "-lineinfo", "-cubin", "-o", cubin, *flags, src],
                       cwd=where, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return name, src, None, "nvcc: " + (r.stderr.strip().splitlines() or ["?"])[-1]
    d = subprocess.run(["nvdisasm", "-c", "-gi", cubin], capture_output=True, text=True,
                       timeout=600)
    if d.returncode != 0:
        return name, src, None, "nvdisasm: " + (d.stderr.strip().splitlines() or ["?"])[-1]
    return name, src, d.stdout, "ok"


def main():
    programs = json.load(open(os.path.join(DATA, "programs.json")))["programs"]
    with tempfile.TemporaryDirectory() as tmp, open(os.path.join(OUT, "sass.log"), "w") as log:
        for tool in ("nvcc", "nvdisasm"):
            v = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
            log.write(f"{tool}: {v.strip().splitlines()[-1]}\n")
        jobs = [(name, src, nvcc_args(p["cflags"], os.path.join(DATA, "src", name)), tmp)
                for name, p in sorted(programs.items())
                for src in p["sources"] if src.endswith(".cu")]
        with tarfile.open(os.path.join(OUT, "hecbench-sass.tar.xz"), "w:xz") as tar, \
                ThreadPoolExecutor(os.cpu_count() or 4) as pool:
            for name, src, text, why in pool.map(one, jobs):
                log.write(f"{name}/{src}: {why}\n")
                if text is None:
                    continue
                path = os.path.join(tmp, "listing")
                with open(path, "w") as f:
                    f.write(text)
                tar.add(path, arcname=f"{name}/{src}.sass")
    print(open(os.path.join(OUT, "sass.log")).read()[-3000:])


if __name__ == "__main__":
    main()
