#!/usr/bin/env python3
"""l1_counts: gpulint's global load and store requests and sectors of the
cusrc kernels measured for them (tests/data/cusrc/<name>.cu: elements kept
in registers across loops, fields joined into wide loads, CUB's tiles,
device objects) against what Nsight
Compute counted on an H200 (tests/data/ncu/h200/cusrc-<name>.csv, recorded
with l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum); and
the global atomics of scripts/timeprobe/atomprobe.cu against its recording
(tests/data/timeprobe/h200/atom: _op_atom + _op_red, each kernel's first
launch at each size), where a recording has them.

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
    ("global_atomic", "requests"): ("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                                    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"),
    ("global_atomic", "sectors"): ("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
                                   "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"),
}
# (source from tests/data, recording, first launch of each grid only, the
# kinds judged): besides cusrc-*. Atomprobe's kernels run 8 times a size;
# its atomics are judged, not the store its `atom` kernel makes under a
# condition on the atomic's result (never true: a guard on data, which
# gpulint's estimate takes as true for every lane).
RECORDINGS = [("../../scripts/timeprobe/atomprobe.cu", "timeprobe/h200/atom/ncu.csv", True,
               ("global_atomic",))]


def value(m, metric):
    """The recorded count (a sum of metrics where given a tuple), None
    where the recording lacks it."""
    names = metric if isinstance(metric, tuple) else (metric,)
    if any(n not in m for n in names):
        return None
    return sum(m[n] for n in names)


def measured(path, first_per_grid=False):
    out = {}
    with open(path) as f:
        rows = list(csv.reader(line for line in f if line.startswith('"')))
    head = rows[0]
    ii, ki, gi, mi, vi = (head.index(c) for c in ("ID", "Kernel Name", "Grid Size", "Metric Name",
                                                  "Metric Value"))
    launches, grids = {}, set()
    for r in rows[1:]:
        name = r[ki].split("(")[0].split("<")[0].replace("void ", "").strip()
        if r[ii] not in launches:
            launches[r[ii]] = {}
            if first_per_grid and (name, r[gi]) in grids:
                continue
            grids.add((name, r[gi]))
            out.setdefault(name, []).append(launches[r[ii]])
        launches[r[ii]][r[mi]] = float(r[vi].replace(",", ""))
    return out


def main():
    skip_without_nvcc()
    check = Checks()
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
               GPULINT_MODELS=os.path.join(ROOT, "models"))
    cases = [(os.path.join("cusrc", os.path.basename(p)[len("cusrc-"):-len(".csv")] + ".cu"), p,
              False)
             for p in sorted(glob.glob(os.path.join(DATA, "ncu", "h200", "cusrc-*.csv")))]
    cases += [(src, os.path.join(DATA, rec), first, kinds) for src, rec, first, kinds in RECORDINGS]
    for source, path, first, *judged in cases:
        name = os.path.splitext(os.path.basename(source))[0]
        meas = measured(path, first)
        r = subprocess.run([GPULINT, source, "--gpu", "h200",
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
                got = [((t.get(k) or {}).get(w, 0), value(m, metric))
                       for (k, w), metric in METRICS.items() if value(m, metric) is not None]
                check(all(p >= v for p, v in got) and any(p > v for p, v in got),
                      f"{name}/{kernel}: counted above the measured {[v for _, v in got]} "
                      f"({[p for p, _ in got]}, labelled {label}): {over}")
                continue
            for (kind, what), metric in METRICS.items():
                p, v = (t.get(kind) or {}).get(what, 0), value(m, metric)
                if v is None or (judged and kind not in judged[0]):
                    continue
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
