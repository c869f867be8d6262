#!/usr/bin/env python3
"""gpulint's time against its own nvcc job on every file of the truth set.

usage: python3 benchmarks/truth_speed.py GPULINT [RUNS] > benchmarks/TRUTH-SPEED.md

For each program of tests/data/truth/programs.json and each set of --define
values its kernels use: the wall time of `gpulint FILE --gpu h100-sxm
--format json` with a fresh cache (nvcc included, as a user runs it), of
the nvcc job gpulint runs (`nvcc -fatbin -arch=sm_90` with the program's
flags), and the peak resident memory of gpulint's own processes (nvcc's
excluded), read from /proc while it runs. Median of RUNS runs (default 3). Prints a Markdown table and the median and worst
ratio.
"""
import json
import os
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


def main():
    progs = json.load(open(os.path.join(TRUTH, "programs.json")))
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
            g, n = [], []
            rss = 0.0
            for _ in range(RUNS):
                cache = tempfile.mkdtemp()
                env = dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_CACHE_DIR=cache,
                           GPULINT_MODELS=os.path.join(ROOT, "models"))
                argv = [GPULINT, p["file"], "--gpu", "h100-sxm", "--format", "json",
                        *[a for x in d for a in ("--define", x)], *p["gpulint"]]
                t, rc = timed(argv, cwd, env)
                g.append(t if rc == 0 else float("nan"))
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
            rows.append((p["name"] + (f" ({', '.join(d)})" if len(sets) > 1 else ""),
                         statistics.median(g), statistics.median(n), rss))
    print("| program | gpulint (s) | nvcc -fatbin (s) | ratio | gpulint peak RSS (MB) |")
    print("|---|---:|---:|---:|---:|")
    for name, g, n, rss in rows:
        print(f"| {name} | {g:.2f} | {n:.2f} | {g / n:.2f} | {rss:.0f} |")
    ratios = [g / n for _, g, n, _ in rows]
    worst = max(rows, key=lambda r: r[1] / r[2])
    print(f"\nMedian ratio {statistics.median(ratios):.2f}, worst {max(ratios):.2f} "
          f"({worst[0]}); peak RSS of gpulint at most {max(r[3] for r in rows):.0f} MB.")


main()
