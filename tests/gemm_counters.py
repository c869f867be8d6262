#!/usr/bin/env python3
"""gemm_counters: the shared-memory requests and wavefronts gpulint predicts
for the reference GEMMs (kernels/gemm.cu, the launches its source makes)
against Nsight Compute's counters for the same launches on an H200
(tests/data/timeprobe/h200/gemm, scripts/timeprobe/gemmprobe.sh). ptxas
issues gemm_regtile's and gemm_smem's neighbouring 4-byte shared loads as
LDS.128 (the recorded SASS), so the shared load instructions are the wide
loads (analysis/vecmerge), exactly; the wavefronts are the hardware
counter's, which also holds cycles lost to L1 fills arriving at the same
time: within 2%. gemm_naive, with no shared instruction, still shows 16
wavefronts a block in the counter (1,048,576 over 65,536 blocks), which is
no access of the kernel's: its wavefronts are not judged. gemm_wmma's fragments load with LDSM, which gpulint
does not count as shared loads, and is left out.
usage: gemm_counters.py GPULINT REPO_ROOT. Ends with "N passed, N failed"."""
import csv, json, os, subprocess, sys

from checks import Checks

KERNELS = ("gemm_naive", "gemm_smem", "gemm_regtile", "gemm_vec")


def counters(path):
    lines = open(path).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    out = {}
    for r in csv.DictReader(lines[start:]):
        if r.get("Metric Value"):
            out.setdefault(r["Kernel Name"], {})[r["Metric Name"]] = \
                float(r["Metric Value"].replace(",", ""))
    return out


def main():
    gpulint, root = sys.argv[1:3]
    env = dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_MODELS=os.path.join(root, "models"))
    p = subprocess.run([gpulint, "kernels/gemm.cu", "--arch", "sm_90", "--format", "json"],
                       cwd=root, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        check = Checks()
        check(False, f"gpulint kernels/gemm.cu exited {p.returncode}", p.stderr)
        check.finish()
    rep = json.loads(p.stdout)
    meas = counters(os.path.join(root, "tests/data/timeprobe/h200/gemm/counters.csv"))
    check = Checks()
    for k in KERNELS:
        roof = next((r for r in rep["roofline"] if r["kernel"] == k), None)
        sites = [a for a in rep["shared_accesses"] if a["kernel"] == k and a["kind"] == "load"]
        m = meas[k]
        lds = sum(a["grid_totals"]["requests"] for a in sites)
        waves = roof["l1_traffic"]["shared"]["wavefronts"] if roof else None
        mw = m["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"]
        check(lds == m["smsp__inst_executed_op_shared_ld.sum"],
              f"{k}: shared load instructions {lds:.0f} predicted, "
              f"{m['smsp__inst_executed_op_shared_ld.sum']:.0f} measured")
        if lds:
            check(waves is not None and abs(waves - mw) <= 0.02 * mw,
                  f"{k}: shared wavefronts {waves} predicted, {mw:.0f} measured")
    check.finish()


if __name__ == "__main__":
    main()
