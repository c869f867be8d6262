#!/usr/bin/env python3
"""Helpers walked at their call sites give what the hand-inlined kernel gives.

usage: call_sites.py GPULINT SRC_ROOT

Each pair in PAIRS is one file whose kernels keep their work in __device__
helpers and its twin with every helper written out by hand (gpulint's own
files in tests/data/cli/cu/). Both are run with --format json; per kernel
the roofline counts (FLOPs by precision, transcendentals, requested bytes,
global accesses, threads), the shared and global access sites (kind,
width, wavefronts, sectors), the branches (verdict, efficiency) and the
findings (check, severity, numbers) must be the same. Lines, columns,
source text and the call chain differ by construction and are not
compared; sites inside helpers must name their call chain ("via").
Registers are ptxas's business and differ between the two.

Then against the H100 (tests/data/ncu/h100/callsites/, recorded by
scripts/ncu-callsites.sh): per kernel the FP32 FLOPs gpulint predicts must
be within 1% of the SASS counters (FADD + FMUL + 2 FFMA), its "at least"
time at most the measured time, and the global
sectors per request of its load and store sites those Nsight Compute
measured, except the misses listed in MISSES with their cause. Ends with
"N passed, N failed"; exit 77 without nvcc.
"""

import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402

GPULINT, SRC_ROOT = sys.argv[1], sys.argv[2]
DATA = os.path.join(SRC_ROOT, "tests", "data")
PAIRS = [("cli/cu/helpers.cu", "cli/cu/helpers-inlined.cu")]
# The helpers holding memory accesses or branches (lerp holds neither).
HELPERS = {"cli/cu/helpers.cu": {"tile::load", "tile::compute", "load_pack", "store_pack",
                                 "accumulate"}}
NCU = os.path.join(DATA, "ncu", "h100", "callsites")
# Kernels where what runs is not what the source says, and why.
MISSES = {
    "block_sum": "ptxas forwards the stored 0.0f into `slot += v` and drops the store and the "
                 "load (1 store instruction per warp measured, 2 stores and 1 load in the "
                 "source); FLOPs 5.03 per thread measured, 6 in the source",
}
check = Checks()


def measured(csv_name):
    """{kernel name: {metric: value}} from an ncu --csv file."""
    import csv
    out = collections.defaultdict(dict)
    with open(os.path.join(NCU, csv_name)) as f:
        rows = [r for r in csv.reader(f) if len(r) > 10]
    head = rows[0]
    for r in rows[1:]:
        d = dict(zip(head, r))
        name = d["Kernel Name"].replace("void ", "").split("(")[0]
        out[name][d["Metric Name"]] = float(d["Metric Value"].replace(",", "") or 0)
    return out


def against_hardware(d, csv_names):
    m = {}
    for c in csv_names:
        m.update(measured(c))
    for r in d["roofline"]:
        k = r["kernel"]
        if k not in m:
            continue
        x = m[k]
        flops = (x["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"] +
                 x["smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"] +
                 2 * x["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"])
        predicted = r["flops"]["fp32"]
        took = x["gpu__time_duration.sum"] * 1e-9
        check(r.get("min_time_s") is not None and r["min_time_s"] <= took,
              f"{k}: 'at least' {r.get('min_time_s')} s is below the measured {took:.3g} s")
        if k in MISSES:
            print(f"miss {k}: FLOPs {predicted:.4g} predicted, {flops:.4g} measured: {MISSES[k]}")
            continue
        check(abs(predicted - flops) <= 0.01 * max(flops, 1),
              f"{k}: FP32 FLOPs {predicted:.4g} predicted, {flops:.4g} on the H100")
        for op in ("ld", "st"):
            req = x[f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"]
            sec = x[f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"]
            sites = {a["sectors"] for a in d["global_accesses"]
                     if a["kernel"] == k and a["kind"] == ("load" if op == "ld" else "store")
                     and a.get("analyzed")}
            if req and len(sites) == 1:
                (s_,) = sites
                check(abs(s_ - sec / req) <= 0.1 * (sec / req),
                      f"{k}: {op} {s_} sectors per request predicted, "
                      f"{sec / req:.3g} on the H100")


def report(rel, target=("--arch", "sm_90")):
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C",
               GPULINT_MODELS=os.path.join(SRC_ROOT, "models"))
    p = subprocess.run([GPULINT, rel, *target, "--format", "json"], cwd=DATA,
                       env=env, capture_output=True, text=True, timeout=600)
    if not check(p.returncode == 0, f"{rel}: exit 0", p.stderr):
        return None
    return json.loads(p.stdout)


def roofline(d):
    keys = ("flops", "transcendentals", "requested_bytes", "dram_bytes", "global_accesses",
            "threads", "upper_bound", "per_thread_counts")
    return {r["kernel"]: {k: r.get(k) for k in keys} for r in d["roofline"]}


def sites(rows, keys):
    return collections.Counter(
        (r["kernel"],) + tuple(json.dumps(r.get(k), sort_keys=True) for k in keys)
        for r in rows)


def findings(d):
    drop = {"file", "line", "column", "message"}
    return collections.Counter(
        json.dumps({k: v for k, v in f.items() if k not in drop}, sort_keys=True)
        for f in d["findings"] if f["check"] != "gpulint-occupancy")  # registers: ptxas's


def main():
    skip_without_nvcc()
    for helpers, inlined in PAIRS:
        h, i = report(helpers), report(inlined)
        if h is None or i is None:
            continue
        name = os.path.basename(helpers)
        check(roofline(h) == roofline(i), f"{name}: roofline counts as hand-inlined",
              f"{roofline(h)}\n!=\n{roofline(i)}")
        shared = ("kind", "width", "analyzed", "wavefronts", "average_wavefronts",
                  "wavefronts_per_block", "requests_per_block")
        check(sites(h["shared_accesses"], shared) == sites(i["shared_accesses"], shared),
              f"{name}: shared-memory sites and wavefronts as hand-inlined")
        glob = ("kind", "width", "analyzed", "sectors", "average_sectors", "efficiency")
        check(sites(h["global_accesses"], glob) == sites(i["global_accesses"], glob),
              f"{name}: global sites and sectors as hand-inlined")
        br = ("verdict", "efficiency", "warps_entering", "warps_divergent",
              "iterations_uniform", "iterations_divergent")
        check(sites(h["branches"], br) == sites(i["branches"], br),
              f"{name}: branches and their divergence as hand-inlined")
        check(findings(h) == findings(i), f"{name}: the same findings as hand-inlined",
              f"{findings(h)}\n!=\n{findings(i)}")
        vias = {r["via"].split(" (called at line ")[0]
                for r in h["shared_accesses"] + h["global_accesses"] + h["branches"]
                if r.get("via")}
        check(vias == HELPERS[helpers], f"{name}: sites inside helpers name their call chain",
              f"{sorted(vias)}")
        check(not any(r.get("via") for r in i["shared_accesses"] + i["global_accesses"]),
              f"{os.path.basename(inlined)}: no call chain where nothing is called")
    for rel, csvs in (("cli/cu/helpers.cu", ["helpers.csv"]),
                      ("cli/cu/fnptr-launch.cu",
                       ["fnptr-launch-0.csv", "fnptr-launch-1.csv", "fnptr-launch-2.csv"])):
        d = report(rel, ("--gpu", "h100-sxm"))  # the measured H100 80GB HBM3 (SXM5)
        if d is not None:
            against_hardware(d, csvs)
    check.finish()


main()
