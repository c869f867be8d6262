#!/usr/bin/env python3
"""l1_counts: gpulint's global load and store requests and sectors of the
cusrc kernels measured for them (tests/data/cusrc/<name>.cu: elements kept
in registers across loops, fields joined into wide loads, CUB's tiles,
device objects) against what Nsight
Compute counted on an H200 (tests/data/ncu/h200/cusrc-<name>.csv, recorded
with l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum).

usage: l1_counts.py GPULINT SRC_ROOT

Per kernel: where gpulint labels its L1 counts exact, each of the four
must equal the measurement; where it labels them a lower bound, none may
exceed it; any other label must be within 25%. The kernels in OVER are
known to be counted high while labelled exact (named with why): each of
their counts must be at least the measured one, and one above it, so the
entry goes when they come right. Ends with "N passed, N failed"; exit 77
without nvcc.
"""

import csv
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402

GPULINT, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DATA = os.path.join(ROOT, "tests", "data")
# Counted high, yet labelled exact: gpulint does not prove what LLVM does.
# Empty since plain double2 pointers' fields (member_stores/aliased) and an
# operator with an atomic on a counter (vector_operators/counted) came right.
OVER = {}
METRICS = {
    ("global_load", "requests"): "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    ("global_load", "sectors"): "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    ("global_store", "requests"): "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    ("global_store", "sectors"): "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
}


def measured(path):
    out = {}
    with open(path) as f:
        rows = list(csv.reader(line for line in f if line.startswith('"')))
    head = rows[0]
    ii, ki, mi, vi = (head.index(c) for c in ("ID", "Kernel Name", "Metric Name", "Metric Value"))
    launches = {}
    for r in rows[1:]:
        name = r[ki].split("(")[0].split("<")[0].replace("void ", "").strip()
        if r[ii] not in launches:
            launches[r[ii]] = {}
            out.setdefault(name, []).append(launches[r[ii]])
        launches[r[ii]][r[mi]] = float(r[vi].replace(",", ""))
    return out


def main():
    skip_without_nvcc()
    check = Checks()
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
               GPULINT_MODELS=os.path.join(ROOT, "models"))
    for path in sorted(glob.glob(os.path.join(DATA, "ncu", "h200", "cusrc-*.csv"))):
        name = os.path.basename(path)[len("cusrc-"):-len(".csv")]
        meas = measured(path)
        r = subprocess.run([GPULINT, os.path.join("cusrc", name + ".cu"), "--gpu", "h200",
                            "--format", "json"], cwd=DATA, env=env, capture_output=True,
                           text=True)
        if not check(r.returncode == 0, f"{name}: gpulint runs", r.stderr):
            continue
        entries = {}
        for e in json.loads(r.stdout).get("roofline", []):
            # Instantiations by their template's name, as Nsight Compute's
            # rows are matched (in launch order).
            entries.setdefault(e["kernel"].split("<")[0], []).append(e)
        # A kernel launched more than once: its launches in order, named
        # kernel#2 and on.
        pairs = []
        for kernel, ms in sorted(meas.items()):
            es = entries.get(kernel, [])
            for i, m in enumerate(ms):
                pairs.append((kernel + ("#%d" % (i + 1) if i else ""), m,
                              es[i] if i < len(es) else None))
        for kernel, m, e in pairs:
            t = (e or {}).get("l1_traffic")
            if not check(t is not None, f"{name}/{kernel}: L1 counts given"):
                continue
            label = t.get("label", "")
            over = OVER.get((name, kernel))
            if over:
                got = [((t.get(k) or {}).get(w, 0), m[metric]) for (k, w), metric in METRICS.items()]
                check(all(p >= v for p, v in got) and any(p > v for p, v in got),
                      f"{name}/{kernel}: counted above the measured {[v for _, v in got]} "
                      f"({[p for p, _ in got]}, labelled {label}): {over}")
                continue
            for (kind, what), metric in METRICS.items():
                p, v = (t.get(kind) or {}).get(what, 0), m[metric]
                if label == "exact":
                    ok, rule = p == v, "equal"
                elif label == "lower_bound":
                    ok, rule = p <= v, "at most"
                else:
                    ok, rule = v > 0 and abs(p / v - 1) <= 0.25, "within 25% of"
                check(ok, f"{name}/{kernel}: {kind} {what} {p:.0f} {rule} the measured "
                          f"{v:.0f} ({label})")
    check.finish()


if __name__ == "__main__":
    main()
