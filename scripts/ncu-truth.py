#!/usr/bin/env python3
"""Measure the real-kernel truth set on the GPU machine.

usage: OUT=DIR python3 scripts/ncu-truth.py [NAME-REGEX]

TRUTH_METRICS=time profiles the time, DRAM bytes and clocks only (one
pass a kernel: what a second card's recording needs, since the other
figures do not depend on the card). TRUTH_JOBS=N builds N programs at a
time (default 1). TRUTH_NO_TAR=1 leaves $OUT/truth as files (a run cut
short still brings back what it measured). TRUTH_NO_PLAIN=1 skips the plain runs (their logs only record the sizes a
program chose, which the H100 logs already hold; some run CPU references
for minutes). TRUTH_SASS_ONLY=1 builds and disassembles only: each
binary's SASS with its source lines (`nvdisasm -gi` of every cubin
`cuobjdump -xelf` extracts: the file and line of every instruction, and
the call site a helper was inlined at), as <program>.lines.sass.

For every program of tests/data/truth/programs.json: build it with its
repository's own flags (sm_90, -lineinfo), run it once plainly (its output
says which sizes it chose), then once per kernel under Nsight Compute,
profiling that kernel's first launch only (`-k regex:^NAME$ -c 1`) with
the application stopped right after it (`--kill yes`: the CPU references
some programs run afterwards take minutes and measure nothing). Also keeps
`cuobjdump -sass` of each binary, the SASS fixtures the compiled-code
readers are tested on without a GPU.

Metrics: time, FLOPs from the SASS counters per precision, shared-memory
instructions and wavefronts, global sectors and requests, DRAM, L2 and L1
bytes, achieved and theoretical occupancy, the launch's shape and
registers, instructions executed. Output: $OUT/truth.tgz holding
truth/{env.txt, <program>.log, <program>.<kernel>.csv, <program>.sass}.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRUTH = os.path.join(ROOT, "tests", "data", "truth")
OUT = os.environ.get("OUT", "/tmp")
RES = os.path.join(OUT, "truth")

METRICS = [
    "gpu__time_duration.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_bytes.sum",
    "l1tex__t_bytes.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "launch__grid_size",
    "launch__block_size",
    "launch__registers_per_thread",
    "smsp__inst_executed.sum",
]

# A second card's recording: the time, what DRAM moved, and the clocks
# Nsight Compute locked (to tell cards of one name apart, with env.txt).
TIME_METRICS = [
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "sm__cycles_elapsed.avg.per_second",
    "dram__cycles_elapsed.avg.per_second",
    "launch__grid_size",
    "launch__block_size",
]


def run(argv, cwd, log, timeout=600):
    with open(log, "a") as f:
        f.write("$ " + " ".join(argv) + "\n")
        f.flush()
        try:
            p = subprocess.run(argv, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = 124
        f.write(f"rc={rc}\n")
    return rc


def disassemble_with_lines(exe, path):
    """nvdisasm -gi of each sm_90 cubin in exe: SASS with file and line."""
    d = tempfile.mkdtemp(prefix="cubins-")
    subprocess.run(["cuobjdump", "-xelf", "all", exe], cwd=d, capture_output=True)
    with open(path, "w") as f:
        for name in sorted(os.listdir(d)):
            if name.endswith(".cubin"):
                f.write(f"// cubin {name}\n")
                f.flush()
                subprocess.run(["nvdisasm", "-gi", "-c", os.path.join(d, name)], stdout=f,
                               stderr=subprocess.STDOUT)
    shutil.rmtree(d)


def build(p, work):
    """The program's build steps in a folder of its own; its exe or None."""
    tag = p["name"].replace("/", "_")
    log = os.path.join(RES, tag + ".log")
    src = os.path.join(TRUTH, p["dir"])
    tmp = os.path.join(work, tag)
    os.makedirs(tmp, exist_ok=True)
    exe = os.path.join(tmp, "prog")
    ok = all(run([a.replace("{exe}", exe).replace("{tmp}", tmp) for a in step], src, log) == 0
             for step in p["build"])
    return exe if ok else None


def card(f):
    """What tells two cards of one name apart: serial, UUID, power limit, clocks."""
    q = ("name,serial,uuid,driver_version,pci.bus_id,power.limit,power.max_limit,"
         "clocks.max.sm,clocks.max.mem,memory.total,temperature.gpu,ecc.mode.current")
    for argv in (["nvidia-smi", f"--query-gpu={q}", "--format=csv"], ["nvcc", "--version"],
                 ["ncu", "--version"]):
        f.write(subprocess.run(argv, capture_output=True, text=True).stdout)


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    metrics = TIME_METRICS if os.environ.get("TRUTH_METRICS") == "time" else METRICS
    shutil.rmtree(RES, ignore_errors=True)
    os.makedirs(RES)
    with open(os.path.join(RES, "env.txt"), "w") as f:
        card(f)
    progs = [p for p in json.load(open(os.path.join(TRUTH, "programs.json")))
             if re.search(only, p["name"])]
    work = tempfile.mkdtemp(prefix="truth-")
    jobs = int(os.environ.get("TRUTH_JOBS", "1"))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        built = dict(zip([p["name"] for p in progs if p.get("build")],
                         pool.map(lambda p: build(p, work), [p for p in progs if p.get("build")])))
    exes = {}
    for p in progs:
        tag = p["name"].replace("/", "_")
        log = os.path.join(RES, tag + ".log")
        if p.get("build"):
            exe = built.get(p["name"])
            if not exe:
                continue
            exes[p["name"]] = exe
            tmp = os.path.dirname(exe)
            if os.environ.get("TRUTH_SASS_ONLY"):
                disassemble_with_lines(exe, os.path.join(RES, tag + ".lines.sass"))
                continue
            if metrics is METRICS:
                with open(os.path.join(RES, tag + ".sass"), "w") as f:
                    subprocess.run(["cuobjdump", "-sass", exe], stdout=f, stderr=subprocess.STDOUT)
            runs = [e["run"] for e in p["kernels"] if isinstance(e, dict) and "run" in e]
            for args in [] if os.environ.get("TRUTH_NO_PLAIN") else runs or [p["run"]]:
                run([exe, *args], tmp, log, timeout=300)
        exe = exes.get(p.get("same_exe_as") or p["name"])
        if not exe or os.environ.get("TRUTH_SASS_ONLY"):
            continue
        for entry in p["kernels"]:
            # A kernel is a name, or {"name", "run"} where the program picks
            # its kernel from its arguments (cuda-samples' --kernel=N).
            k = entry if isinstance(entry, str) else entry["name"]
            args = p["run"] if isinstance(entry, str) else entry.get("run", p["run"])
            csv = os.path.join(RES, f"{tag}.{k}.csv")
            with open(csv, "w") as f:
                try:
                    subprocess.run(["ncu", "--csv", "--clock-control", "base", "--metrics",
                                    ",".join(metrics), "-k", f"regex:^{k}$", "-c", "1", "--kill",
                                    "yes", exe, *args],
                                   cwd=os.path.dirname(exe), stdout=f, stderr=subprocess.DEVNULL,
                                   timeout=120)
                except subprocess.TimeoutExpired:
                    f.write("timed out\n")
            print(f"{p['name']} {k}: {os.path.getsize(csv)} B", flush=True)
    if os.environ.get("TRUTH_NO_TAR"):
        return
    subprocess.run(["tar", "-czf", os.path.join(OUT, "truth.tgz"), "-C", OUT, "truth"])
    shutil.rmtree(RES)


main()
