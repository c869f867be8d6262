#!/usr/bin/env python3
"""gpulint's time against its own nvcc job on every file of the truth set.

usage: python3 benchmarks/truth_speed.py GPULINT [RUNS [PROGRAM]] > benchmarks/TRUTH-SPEED.md

For each program of tests/data/truth/programs.json and each set of --define
values its kernels use: the wall time of `gpulint FILE --gpu h100-sxm
--format json` with a fresh cache (nvcc included, as a user runs it), of
the nvcc job gpulint runs (`nvcc -fatbin -arch=sm_90` with the program's
flags), and the peak resident memory of gpulint's own processes (nvcc's
excluded), read from /proc while it runs, and the wall time of the nvcc job
gpulint itself started (through a wrapper given as --nvcc), whose flags
differ from the plain job's. Median of RUNS runs (default 3). Prints a
Markdown table and the median and worst ratios.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GPULINT = os.path.abspath(sys.argv[1])
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRUTH = os.path.join(ROOT, "tests", "data", "truth")


# gpulint runs nvcc through this wrapper (--nvcc), which records how long
# the job gpulint started took: the ratio to it is gpulint's cost beyond
# the compile it needs (its flags: -Xptxas -v, -lineinfo, --keep).
WRAPPER = """#!{py}
import os, subprocess, sys, time
t0 = time.monotonic()
rc = subprocess.call([{nvcc!r}] + sys.argv[1:])
with open(os.environ["GPULINT_BENCH_NVCC_TIMES"], "a") as f:
    f.write(f"{{time.monotonic() - t0}}\\n")
sys.exit(rc)
"""


def kernel_defines(p, k):
    return tuple(p["defines"]) if isinstance(k, str) else tuple(k.get("defines", p["defines"]))


def timed(argv, cwd, env):
    t0 = time.monotonic()
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True)
    return time.monotonic() - t0, r.returncode


def descendants(pid):
    out = []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(x) for x in f.read().split()]
    except OSError:
        return out
    for k in kids:
        out += [k] + descendants(k)
    return out


def gpulint_rss(argv, cwd, env):
    """Peak resident memory (MB) of gpulint's own processes (the main one
    and its workers; nvcc and its children excluded), polled from /proc
    (VmHWM) until it exits."""
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    hwm = 0
    while p.poll() is None:
        for pid in [p.pid] + descendants(p.pid):
            try:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() != "gpulint":
                        continue
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            hwm = max(hwm, int(line.split()[1]))
            except OSError:
                pass
        time.sleep(0.05)
    return hwm / 1024


def make_wrapper():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "nvcc")
    with open(path, "w") as f:
        f.write(WRAPPER.format(py=sys.executable, nvcc=shutil.which("nvcc") or "nvcc"))
    os.chmod(path, 0o755)
    return path


def main():
    progs = json.load(open(os.path.join(TRUTH, "programs.json")))
    if len(sys.argv) > 3:  # a regular expression: the programs whose names it finds
        progs = [p for p in progs if re.search(sys.argv[3], p["name"])]
    wrapper = make_wrapper()
    rows = []
    for p in progs:
        sets = []
        for k in p["kernels"]:
            d = kernel_defines(p, k)
            if d not in sets:
                sets.append(d)
        cwd = os.path.join(TRUTH, p["dir"])
        flags = [a for a in p["gpulint"] if a != "--"]
        for d in sets:
            g, n, job, gk, jobk = [], [], [], [], []
            rss = 0.0
            argv = [GPULINT, p["file"], "--gpu", "h100-sxm", "--format", "json",
                    "--nvcc", wrapper, *[a for x in d for a in ("--define", x)], *p["gpulint"]]
            # The header PCH a first run in this folder leaves (cusrc_pch:
            # kept per clang version and argument list), for the runs that
            # find it: a fresh cache otherwise, so nothing else is kept.
            pch = tempfile.mkdtemp()
            timed(argv, cwd, dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_CACHE_DIR=pch,
                                  GPULINT_MODELS=os.path.join(ROOT, "models")))
            for _ in range(RUNS):
                for kept in (False, True):
                    cache = tempfile.mkdtemp()
                    if kept:
                        for name in os.listdir(pch):
                            if name.endswith(".pch"):
                                shutil.copy(os.path.join(pch, name), cache)
                    times = os.path.join(cache, "nvcc-times")
                    env = dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_CACHE_DIR=cache,
                               GPULINT_MODELS=os.path.join(ROOT, "models"),
                               GPULINT_BENCH_NVCC_TIMES=times)
                    t, rc = timed(argv, cwd, env)
                    (gk if kept else g).append(t if rc == 0 else float("nan"))
                    with open(times) as f:
                        (jobk if kept else job).append(max(float(x) for x in f.read().split()))
                    shutil.rmtree(cache)
                out = tempfile.mktemp(suffix=".fatbin")
                t, _ = timed(["nvcc", "-fatbin", "-arch=sm_90", *flags, p["file"], "-o", out],
                             cwd, os.environ)
                n.append(t)
                if os.path.exists(out):
                    os.unlink(out)
            cache = tempfile.mkdtemp()
            env = dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_CACHE_DIR=cache,
                       GPULINT_MODELS=os.path.join(ROOT, "models"))
            rss = gpulint_rss([GPULINT, p["file"], "--gpu", "h100-sxm", "--format", "json", "-j1",
                               *[a for x in d for a in ("--define", x)], *p["gpulint"]], cwd, env)
            shutil.rmtree(cache)
            shutil.rmtree(pch)
            rows.append((p["name"] + (f" ({', '.join(d)})" if len(sets) > 1 else ""),
                         statistics.median(g), statistics.median(n), statistics.median(job),
                         rss, statistics.median(gk), statistics.median(jobk)))
    print("| program | gpulint (s) | nvcc -fatbin (s) | ratio | its nvcc job (s) | ratio to it "
          "| header PCH kept: gpulint (s) | its nvcc job (s) | ratio to it "
          "| gpulint peak RSS (MB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, g, n, j, rss, gk, jk in rows:
        print(f"| {name} | {g:.2f} | {n:.2f} | {g / n:.2f} | {j:.2f} | {g / j:.2f} "
              f"| {gk:.2f} | {jk:.2f} | {gk / jk:.2f} | {rss:.0f} |")
    ratios = [r[1] / r[2] for r in rows]
    to_job = [r[1] / r[3] for r in rows]
    kept = [r[5] / r[6] for r in rows]
    worst = max(rows, key=lambda r: r[1] / r[2])
    worst_job = max(rows, key=lambda r: r[1] / r[3])
    worst_kept = max(rows, key=lambda r: r[5] / r[6])
    print(f"\nMedian ratio {statistics.median(ratios):.2f}, worst {max(ratios):.2f} "
          f"({worst[0]}); to gpulint's own nvcc job: median {statistics.median(to_job):.2f}, "
          f"worst {max(to_job):.2f} ({worst_job[0]}); with the header PCH kept, to its own "
          f"nvcc job: median {statistics.median(kept):.2f}, worst {max(kept):.2f} "
          f"({worst_kept[0]}); peak RSS of gpulint at most "
          f"{max(r[4] for r in rows):.0f} MB.")


main()
