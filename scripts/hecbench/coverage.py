#!/usr/bin/env python3
"""What gpulint can size on HeCBench programs outside the truth set: the
eligible programs the draw left out (tests/data/hecbench/draw.json), never
measured, in neither half. A development corpus for the source following:
it says which kernels get a predicted time and why the others do not, so
that a gap is found on code no half was drawn from. It judges nothing
against measurements.

usage: coverage.py HECBENCH GPULINT [--jobs N] [--only NAME,NAME] [--keep DIR]

HECBENCH is a checkout of zjin-lcf/HeCBench, or a bare clone of it (read
at HEAD); tests/data/hecbench/README.md names the commit the truth set was
copied from. Each program is run as tests/hecbench_truth.py runs the
truth set's: the files its Makefile compiles with nvcc and the flags that
change device code (`make -n`, ARCH=sm_90), the arguments of its `run`
target as --run-args, --gpu h200. Per kernel the ptxas log lists: a
predicted time, the reason gpulint gives for none, or no launch found.
Prints the counts, then the programs behind each reason; --keep DIR
keeps each program's JSON report and stderr there.
"""

import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from hecbench_flags import nvcc_args  # noqa: E402


def opt(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def make_lines(where, *targets):
    """The commands `make -n` prints: no command runs (no shell sees a
    program's name: make is handed an argument vector)."""
    r = subprocess.run(["make", "-n", "-B", "ARCH=sm_90", *targets], cwd=where,
                       capture_output=True, text=True, timeout=60)
    return r.stdout.splitlines()


SOURCES = (".cu", ".cpp", ".cc", ".cxx")


def build_of(where):
    """(sources, flags, run arguments) from the program's Makefile: the
    files its nvcc lines compile (each with -c or -dc, or all in one line
    that also links) and the flags of the first of them."""
    srcs, flags = [], ""
    for line in make_lines(where):
        toks = line.split()
        if not toks or not toks[0].endswith("nvcc"):
            continue
        after_o = {i + 1 for i, t in enumerate(toks) if t == "-o"}
        files = [t for i, t in enumerate(toks) if i not in after_o and t.endswith(SOURCES)]
        srcs += [f for f in files if f not in srcs]
        if files and not flags:
            flags = " ".join(t for i, t in enumerate(toks[1:], 1)
                             if i not in after_o and t != "-o" and not t.endswith(SOURCES + (".o",)))
    args = []
    for line in make_lines(where, "run"):
        m = re.search(r"\./(\S+)\s*(.*)$", line)
        if m and "nvcc" not in line and not line.startswith("rm "):
            args = m.group(2).split()
    return srcs, flags, args


def kernels_of(doc):
    """(kernel, outcome) per kernel of the ptxas log."""
    for k in doc.get("kernels", []):
        if not k.get("launches"):
            yield k.get("demangled") or k["name"], "no launch found"
            continue
        reasons = set()
        for launch in k["launches"]:
            t = launch.get("time") or {}
            reasons.add("time" if "predicted_s" in t else t.get("reason", "no time"))
        yield k.get("demangled") or k["name"], "time" if "time" in reasons else min(reasons)


def run(name, hecbench, gpulint, keep, scratch):
    where = os.path.join(scratch, name)
    os.makedirs(where, exist_ok=True)
    src = os.path.join(hecbench, "src", name + "-cuda")
    if os.path.isdir(src):
        subprocess.run(["cp", "-r", "--", src + "/.", where], check=True)
    else:
        tar = subprocess.run(["git", "-C", hecbench, "archive", "HEAD", "src/%s-cuda" % name],
                             capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "--strip-components=2", "-C", where], input=tar, check=True)
    srcs, flags, args = build_of(where)
    if not srcs:
        return name, None, "no nvcc line compiles a source in its Makefile"
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C",
               GPULINT_MODELS=os.path.join(ROOT, "models"))
    argv = [gpulint, *srcs, "--gpu", "h200", "--format", "json", "-j", "1", "--timeout", "600",
            "--run-args", " ".join(args), "--", *nvcc_args(flags, where)]
    r = subprocess.run(argv, cwd=where, env=env, capture_output=True, text=True, timeout=1800)
    if keep:
        with open(os.path.join(keep, name + ".json"), "w") as f:
            f.write(r.stdout)
        with open(os.path.join(keep, name + ".err"), "w") as f:
            f.write(r.stderr)
    try:
        return name, json.loads(r.stdout), None
    except json.JSONDecodeError:
        return name, None, (r.stderr.strip().splitlines() or ["no report"])[-1]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    hecbench, gpulint = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    draw = json.load(open(os.path.join(ROOT, "tests", "data", "hecbench", "draw.json")))
    names = sorted(set(draw["eligible"]) - set(draw["drawn"]))
    if opt("--only"):
        names = [n for n in names if n in opt("--only").split(",")]
    keep = opt("--keep")
    if keep:
        os.makedirs(keep, exist_ok=True)
    counts, where = collections.Counter(), collections.defaultdict(collections.Counter)
    with tempfile.TemporaryDirectory() as scratch, \
            ThreadPoolExecutor(int(opt("--jobs", "2"))) as pool:
        for name, doc, failed in pool.map(
                lambda n: run(n, hecbench, gpulint, keep, scratch), names):
            if doc is None:
                counts["no report (programs)"] += 1
                where["no report (programs)"][name + ": " + failed[:80]] += 1
                continue
            for _, outcome in kernels_of(doc):
                counts[outcome] += 1
                where[outcome][name] += 1
    total = sum(counts.values())
    print("%d programs, %d kernels" % (len(names), total))
    for outcome, n in counts.most_common():
        print("%5d  %s" % (n, outcome))
    for outcome, n in counts.most_common():
        if outcome != "time":
            print("\n%s:\n  %s" % (outcome, ", ".join(
                "%s (%d)" % (p, c) for p, c in where[outcome].most_common())))


if __name__ == "__main__":
    main()
