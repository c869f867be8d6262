#!/usr/bin/env python3
"""count_probe: gpulint's counts for the fixtures that stand for a rule of
stop 55 (tests/data/cusrc: triangle.cu, cub_collectives.cu,
device_props.cu, async_copy.cu) against Nsight Compute on an H200
(tests/data/countprobe, scripts/countprobe/run.sh):

  - triangular loops: the FLOPs equal the SASS counters' (FFMA x 2 + FADD
    + FMUL) exactly, labelled exact, and the warp instructions are within
    25% of smsp__inst_executed;
  - CUB collectives on integer items: 0 FLOPs as measured, counts whole,
    global load requests and sectors equal L1's; on float items the counts
    say they miss code, and the card did run floating-point adds there;
  - a grid sized from cudaDeviceProp / cudaDeviceGetAttribute: gpulint's
    grid and block equal the launch's;
  - asynchronous copies: the counts say they miss code, and L1 did serve
    global loads gpulint's sites do not hold.

usage: count_probe.py GPULINT SOURCE_ROOT. Ends with "N passed, N failed";
exit 77 without nvcc."""
import collections
import csv
import json
import os
import subprocess
import sys

GPULINT, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import Checks, skip_without_nvcc  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data")
check = Checks()


def measured(name):
    """Per launch in order: {metric: number} with 'kernel', 'grid', 'block'."""
    lines = [l for l in open(os.path.join(DATA, "countprobe", name + ".csv")) if l.startswith('"')]
    out = collections.OrderedDict()
    for r in csv.DictReader(lines):
        m = out.setdefault(r["ID"], {"kernel": r["Kernel Name"], "grid": r["Grid Size"],
                                     "block": r["Block Size"]})
        m[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return list(out.values())


def flops(m):
    p = "smsp__sass_thread_inst_executed_op_"
    return 2 * m[p + "ffma_pred_on.sum"] + m[p + "fadd_pred_on.sum"] + m[p + "fmul_pred_on.sum"]


def report(name):
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1",
               GPULINT_MODELS=os.path.join(ROOT, "models"))
    r = subprocess.run([GPULINT, "cusrc/%s.cu" % name, "--gpu", "h200", "--format", "json"],
                       cwd=DATA, capture_output=True, text=True, env=env)
    check(r.returncode == 0, f"gpulint reads {name}.cu", r.stderr[-300:])
    doc = json.loads(r.stdout) if r.returncode == 0 else {"roofline": [], "kernels": []}
    launches = sorted((l for k in doc["kernels"] for l in k.get("launches", [])),
                      key=lambda l: l["line"])
    roof = {(e["kernel"], e["line"]): e for e in doc["roofline"]}
    return [(l, roof.get((l["kernel"], l["line"]), {})) for l in launches]


def within(p, m, tol=0.25):
    return p is not None and m > 0 and abs(p / m - 1) <= tol


skip_without_nvcc()

for (l, e), m in zip(report("triangle"), measured("triangle")):
    k = l["kernel"]
    check(e.get("flops", {}).get("fp32") == flops(m) and e.get("counts_label") == "exact",
          f"triangle {k}: {e.get('flops', {}).get('fp32')} FLOP (exact), SASS counters {flops(m):.0f}")
    p = (e.get("issue") or {}).get("warp_instructions")
    check(within(p, m["smsp__inst_executed.sum"]),
          f"triangle {k}: {p} warp instructions, Nsight Compute "
          f"{m['smsp__inst_executed.sum']:.0f}, within 25%")

for (l, e), m in zip(report("cub_collectives"), measured("cub_collectives")):
    k, ld = l["kernel"], (e.get("l1_traffic") or {}).get("global_load", {})
    if k == "float_total":
        check(e.get("counts_label") == "lower_bound" and flops(m) > 0,
              f"cub {k}: counts say they miss code ({e.get('counts_label')}); the card ran "
              f"{flops(m):.0f} FLOP of BlockReduce<float>'s adds")
        continue
    check(e.get("counts_label") == "exact" and e.get("flops", {}).get("fp32") == 0 == flops(m),
          f"cub {k}: 0 FLOP, counts whole ({e.get('counts_label')}); SASS counters {flops(m):.0f}")
    check(ld.get("requests") == m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] and
          ld.get("sectors") == m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
          f"cub {k}: {ld.get('requests')} load requests, {ld.get('sectors')} sectors; L1 "
          f"{m['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']:.0f}, "
          f"{m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum']:.0f}")

for (l, e), m in zip(report("device_props"), measured("device_props")):
    dims = lambda s: [int(x) for x in s.strip("()").split(",")]  # noqa: E731
    check(l.get("grid") == dims(m["grid"]) and l.get("block") == dims(m["block"]),
          f"device_props line {l['line']}: grid {l.get('grid')} block {l.get('block')}, "
          f"launched {m['grid']} {m['block']}")

for (l, e), m in zip(report("async_copy"), measured("async_copy")):
    ld = (e.get("l1_traffic") or {}).get("global_load", {}).get("sectors", 0)
    check(e.get("counts_label") == "lower_bound" and
          m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] > ld,
          f"async_copy {l['kernel']}: counts say they miss code ({e.get('counts_label')}); L1 "
          f"served {m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum']:.0f} load sectors, "
          f"the sites hold {ld}")

check.finish()
