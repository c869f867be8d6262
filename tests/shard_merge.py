#!/usr/bin/env python3
"""--shard K/N and `gpulint merge`: a CI matrix gives the report of one run.

usage: shard_merge.py GPULINT SRC_ROOT

Over the examples, for N = 2 and 3: every file lands in exactly one shard;
the merged JSON reports hold the same kernels, sources, accesses, branches,
roofline rows and findings as one run over all files, and the merged SARIF
logs the same results; the merged JSON, used as a baseline, passes `check`.
Ends with "N passed, N failed" (exit 77, "skipped: no nvcc", without nvcc).
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402
import tempfile

GPULINT, SRC_ROOT = sys.argv[1], sys.argv[2]
FILES = ["vector_add.cu", "transpose.cu", "reduction.cu", "divergence.cu", "coalescing.cu",
         "train_step.cu"]
check = Checks()




def run(args, tmp):
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
               GPULINT_MODELS=os.path.join(SRC_ROOT, "models"), TMPDIR=tmp)
    return subprocess.run([GPULINT, *args], cwd=os.path.join(SRC_ROOT, "examples"), env=env,
                          capture_output=True, text=True, timeout=900)


def multiset(items):
    return sorted(json.dumps(x, sort_keys=True) for x in items)


def sizes_of(doc):
    """The sizes block as sets: each constant followed, each unknown name
    with the launches it blocks."""
    s = doc.get("sizes", {})
    found = sorted(json.dumps(f, sort_keys=True) for f in s.get("found", []))
    unknown = sorted(json.dumps({**u, "launches": sorted(json.dumps(x, sort_keys=True)
                                                          for x in u.get("launches", []))},
                                sort_keys=True) for u in s.get("unknown", []))
    return found, unknown


def main():
    skip_without_nvcc()
    files = [f for f in FILES if os.path.exists(os.path.join(SRC_ROOT, "examples", f))]
    with tempfile.TemporaryDirectory() as tmp:
        whole = {fmt: run([*files, "--format", fmt], tmp) for fmt in ("json", "sarif")}
        check(all(p.returncode == 0 for p in whole.values()), f"one run over {len(files)} files")
        wj, ws = json.loads(whole["json"].stdout), json.loads(whole["sarif"].stdout)
        for n in (2, 3):
            paths = {"json": [], "sarif": []}
            owners = {}
            for k in range(1, n + 1):
                for fmt in ("json", "sarif"):
                    p = run([*files, "--format", fmt, "--shard", f"{k}/{n}"], tmp)
                    path = os.path.join(tmp, f"shard{k}of{n}.{fmt}")
                    with open(path, "w") as fh:
                        fh.write(p.stdout)
                    paths[fmt].append(path)
                    if fmt == "json" and p.returncode == 0:
                        for s in json.loads(p.stdout)["sources"]:
                            owners.setdefault(s["file"], []).append(k)
            check(sorted(owners) == sorted(files) and all(len(v) == 1 for v in owners.values()),
                  f"N={n}: each file in exactly one shard", owners)
            mj = run(["merge", *paths["json"]], tmp)
            ok = mj.returncode == 0
            if ok:
                m = json.loads(mj.stdout)
                bad = [k for k, v in wj.items() if isinstance(v, list)
                       and multiset(v) != multiset(m.get(k, []))]
                ok = not bad
            check(ok, f"N={n}: merged JSON = one run's report", mj.stderr or bad)
            if mj.returncode == 0:
                got, want = sizes_of(json.loads(mj.stdout)), sizes_of(wj)
                check(got == want and want[1],
                      f"N={n}: the merged sizes block = one run's (made again from all launches)",
                      f"merged {got}, one run {want}")
            ms = run(["merge", *paths["sarif"]], tmp)
            ok = ms.returncode == 0 and multiset(json.loads(ms.stdout)["runs"][0]["results"]) == \
                multiset(ws["runs"][0]["results"])
            check(ok, f"N={n}: merged SARIF = one run's results", ms.stderr)
            base = os.path.join(tmp, f"merged{n}.json")
            with open(base, "w") as fh:
                fh.write(mj.stdout)
            c = run(["check", "--baseline", base, *files], tmp)
            check(c.returncode == 0, f"N={n}: the merged report is a baseline check passes",
                  c.stdout + c.stderr)
    check.finish()


main()
