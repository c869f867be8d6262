#!/usr/bin/env python3
"""ncu_sass_compare: gpulint's shared-memory prediction for every access
site, against Nsight Compute's per-instruction source counters
(tests/data/ncu/<device>/sass-<example>.csv, from scripts/ncu-sass.sh).

usage: ncu_sass_compare.py GPULINT REPO_ROOT DEVICE_DIR...

The examples are built with -lineinfo, so each SASS instruction carries the
source line it came from. Per kernel, source line and direction (load or
store) this compares

  - wavefronts per request: measured L1 Wavefronts Shared over requests,
    against gpulint's average_wavefronts. A request is one execution with at
    least one active lane; for a 32-bit access its ideal is one wavefront
    whatever the active lanes, so the ideal column counts the requests.
    (Executions with every lane predicated off are in `inst` but cost no
    wavefront and are no request.) Wider accesses are compared by totals;
  - total wavefronts over the run: measured, against gpulint's
    grid_totals.wavefronts (every block of the grid, edge blocks included)
    times the kernel's launches.

The wavefront columns are SASS-patched: computed from the addresses of each
execution. The hardware counters (l1tex__data_pipe_lsu_wavefronts_*) add
data-stage cycles lost to L1 fills arriving at the same time; see
tests/data/ncu/RESULTS.md and kernels/smem_contention.cu.

A line is reported, not judged, when the compiler emitted an access of
another width than the source's (4-byte reads merged into LDS.128), or when
the line's shared instructions live in headers gpulint does not analyse.
Ends with "N equal, N differ, N not comparable"; exits 1 if any differ."""
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_compare import DEFINES, kernel_key  # noqa: E402


def norm_kernel(name):
    key = kernel_key(name)
    # ncu prints template arguments with casts: <(int)64, (bool)1>.
    key = key.replace("(bool)0", "false").replace("(bool)1", "true")
    return re.sub(r"\((?:unsigned|int|long|short|char|unsigned int)\)", "", key)


def measured(path):
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            k = (norm_kernel(r["kernel"]), r["file"], int(r["line"]), r["op"])
            d = out.setdefault(k, {"wf": 0, "ideal": 0, "bits": set(), "n": 0})
            d["wf"] += int(r["wavefronts"])
            d["ideal"] += int(r["ideal"])
            d["bits"].add(int(r["bits"]))
            d["n"] += 1
    return out


def predicted(gpulint, src, root):
    env = dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_MODELS=os.path.join(root, "models"))
    name = os.path.splitext(os.path.basename(src))[0]
    args = [a for d in DEFINES.get(name, []) for a in ("--define", d)]
    p = subprocess.run([gpulint, src, "--arch", "sm_90", "--format", "json"] + args, cwd=root,
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"{src}: gpulint exited {p.returncode}: {p.stderr.strip()}")
    rep = json.loads(p.stdout)
    grids = {}
    for k in rep.get("kernels", []):
        for launch in k.get("launches", []):
            grids.setdefault(norm_kernel(launch["kernel"]), []).append(launch.get("grid"))
    out = {}
    for a in rep.get("shared_accesses", []):
        k = (norm_kernel(a["kernel"]), os.path.basename(a["file"]), a["line"],
             "load" if a["kind"] == "load" else "store")
        d = out.setdefault(k, {"sites": 0, "wf": 0, "req": 0, "width": set(), "why": None,
                               "total": 0, "total_req": 0, "total_ok": True, "total_why": None})
        d["sites"] += 1
        # A site ptxas issues as one wide load (gpulint's merged_iterations)
        # is judged at that width.
        d["width"].add(a["width"] * (a.get("grid_totals") or {}).get("merged_iterations", 1))
        if not a.get("analyzed"):
            d["why"] = a.get("reason", "not analysed")
            continue
        d["req"] += a["requests_per_block"]
        d["wf"] += a["wavefronts_per_block"]
        # Whole-run totals: the site's grid totals times the launches with
        # that grid; any launch with another or unknown grid leaves them out.
        t = a.get("grid_totals")
        launches = grids.get(k[0], [])
        if not t or any(g != t["grid"] for g in launches):
            d["total_ok"] = False
            d["total_why"] = "no constant grid shared by every launch"
        elif not t["exact"]:
            d["total_ok"] = False
            d["total_why"] = t.get("note", "the total rests on an assumption")
        else:
            d["total"] += t["wavefronts"] * len(launches)
            d["total_req"] += t["requests"] * len(launches)
    return out


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def compare(m, p, loc):
    """One line: (verdict, text); verdict is 'ok', 'fail' or 'skip'."""
    if p is None:
        return "skip", f"{loc}: measured {m['wf']} wavefronts; no access site on this line"
    if m is None:
        return "skip", (f"{loc}: predicted {p['sites']} site(s); no shared instruction on this "
                        "line (the compiler moved or removed it)")
    if p["why"]:
        return "skip", f"{loc}: measured {m['wf']} wavefronts; not analysed: {p['why']}"
    widths = {8 * w for w in p["width"]}
    if m["bits"] != widths:
        return "skip", (f"{loc}: source reads {'/'.join(str(w // 8) for w in sorted(widths))}-byte "
                        f"elements, the compiler emitted {'/'.join(str(b) for b in sorted(m['bits']))}"
                        f"-bit instructions ({m['wf']} wavefronts): not the source's access")
    parts = []
    ok = True
    pred_avg = p["wf"] / p["req"] if p["req"] else 0.0
    if m["bits"] == {32}:
        req = m["ideal"]
        meas_avg = m["wf"] / req if req else 0.0
        same = close(meas_avg, pred_avg)
        ok = same
        parts.append(f"{meas_avg:.4f} wavefronts/request measured ({m['wf']}/{req}), "
                     f"{pred_avg:.4f} predicted ({p['wf']}/{p['req']} per block)"
                     f"{'' if same else '  <-- differs'}")
    if p["total_ok"]:
        same = m["wf"] == p["total"]
        ok = ok and same
        parts.append(f"total {m['wf']} measured, {p['total']} predicted"
                     f"{'' if same else '  <-- differs'}")
    elif m["bits"] != {32}:
        return "skip", f"{loc}: measured {m['wf']}; total not predicted: {p['total_why']}"
    else:
        parts.append(f"total not predicted: {p['total_why']}")
    return ("ok" if ok else "fail"), f"{loc}: " + "; ".join(parts)


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: ncu_sass_compare.py GPULINT REPO_ROOT DEVICE_DIR...")
    gpulint, root = sys.argv[1:3]
    failed = False
    cache = {}
    for dev in sys.argv[3:]:
        if len(sys.argv) > 4:
            print(f"== {dev}")
        failed |= compare_device(gpulint, root, dev, cache)
    return 1 if failed else 0


def compare_device(gpulint, root, dev, cache):
    counts = {"ok": 0, "fail": 0, "skip": 0}
    for fn in sorted(os.listdir(dev)):
        mt = re.fullmatch(r"sass-(.+)\.csv", fn)
        if not mt:
            continue
        src = next((s for s in (os.path.join(d, mt.group(1) + ".cu") for d in ("examples", "kernels"))
                    if os.path.exists(os.path.join(root, s))), None)
        if not src:
            continue
        meas = measured(os.path.join(dev, fn))
        if src not in cache:
            cache[src] = predicted(gpulint, src, root)
        pred = cache[src]
        base = os.path.basename(src)
        ran = {k[0] for k in meas}
        for name in sorted({k[0] for k in pred} - ran):
            counts["skip"] += 1
            print(f"skip {src}: {name} did not run on the GPU (its launch failed or was not "
                  "profiled)")
        for key in sorted(set(meas) | {k for k in pred if k[0] in ran}):
            if key[1] != base and key not in pred:
                # Instructions from headers (CUB, cooperative_groups).
                verdict, text = "skip", (f"{key[1]}:{key[2]} {key[3]} in {key[0]}: measured "
                                         f"{meas[key]['wf']} wavefronts inside a header; "
                                         "gpulint analyses the file's own accesses")
            else:
                loc = f"{src}:{key[2]} {key[3]}s in {key[0]}"
                verdict, text = compare(meas.get(key), pred.get(key), loc)
            counts[verdict] += 1
            print(("ok  " if verdict == "ok" else "FAIL" if verdict == "fail" else "skip") + " " + text)
    print(f"{counts['ok']} equal, {counts['fail']} differ, {counts['skip']} not comparable")
    return counts["fail"] > 0


if __name__ == "__main__":
    sys.exit(main())
