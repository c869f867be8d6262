#!/usr/bin/env python3
"""How fast the fitting half's busiest launches issue, against a model of
the SM's half-rate pipes read from their SASS. Fitting half only: the
judging half is never read.

usage: pipe-mix.py SRC_ROOT

For each fitting-half launch that Nsight Compute measured issuing at least
half the schedulers' peak (smsp__inst_executed / (gpu__time_duration x
sm__cycles_elapsed.avg.per_second x 132 SMs) >= 2 warp instructions a
clock an SM), it reads the kernel's SASS from
tests/data/hecbench/sass/hecbench-sass.tar.xz, sorts each instruction into
the pipe Nsight Compute's documentation puts it on, and prints the rate
the model gives beside the measured one. The model
(src/analysis/timing/pipes.c, which the time model applies to the PTX of
the blocks it places), per scheduler: one warp instruction a clock at
most; the ALU pipe (integer and logic but for IMAD, compares, selects,
conversions to FP32), the FMA-heavy pipe (IMAD, IMUL) and, on GH100, the
FP64 pipe take one every second clock (16 lanes; the CUDA C++ Programming
Guide's throughput table for compute capability 9.0), the XU pipe one
every eighth (tests/data/xuprobe); an instruction whose pipe, of c_p
clocks, took the instruction issued just before waits c_p - 1 clocks,
which a stream of independent picks does with probability f_p for the
share f_p of its instructions on pipe p: clocks an instruction =
max(1 + sum (c_p - 1) f_p^2, max f_p x c_p). The mix here is the
kernel's static one (every instruction once), not the executed one.
"""

import csv
import json
import os
import re
import statistics
import sys
import tarfile

SRC_ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "."
DATA = os.path.join(SRC_ROOT, "tests", "data", "hecbench")
SMS, PEAK = 132, 4.0

ALU = set("IADD3 ISETP LOP3 SHF SEL IABS IMNMX FSETP FMNMX PRMT MOV LEA FSEL FSET ISET I2FP "
          "BMSK SGXT P2R R2P PLOP3 IADD VIMNMX VIADDMNMX FCHK F2FP".split())
HEAVY = set("IMAD IMUL IDP VIADD".split())
FULL = set("FFMA FADD FMUL HFMA2 HADD2 HMUL2 FFMA2".split())
FP64 = set("DFMA DADD DMUL DSETP".split())
XU = set("MUFU F2I I2F F2F FRND POPC FLO BREV".split())
CLOCKS = {"alu": 2, "heavy": 2, "fp64": 2, "xu": 8}


def pipe(op):
    base = op.split(".")[0]
    if op.startswith("HFMA2.MMA"):
        return "heavy"  # ptxas's register move on the FMA-heavy pipe
    for name, ops in (("heavy", HEAVY), ("alu", ALU), ("fma", FULL), ("fp64", FP64), ("xu", XU)):
        if base in ops:
            return name
    return "other"


def functions(text):
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*\.text\.(\S+):", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*[0-9a-f]+\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)", line)
        if m and cur is not None:
            cur.append(m.group(2))
    return out


def model_rate(ops):
    share = {}
    for op in ops:
        share[pipe(op)] = share.get(pipe(op), 0) + 1 / len(ops)
    contention = 1 + sum(share.get(p, 0) ** 2 * (c - 1) for p, c in CLOCKS.items())
    bound = max([1] + [share.get(p, 0) * c for p, c in CLOCKS.items()])
    return PEAK / max(contention, bound), share


def num(s):
    return float(str(s).replace(",", ""))


def main():
    split = json.load(open(os.path.join(SRC_ROOT, "tests", "data", "truth-split.json")))
    fitting = {n[len("hecbench/"):] for n in split["fitting"] if n.startswith("hecbench/")}
    sass = {}
    with tarfile.open(os.path.join(DATA, "sass", "hecbench-sass.tar.xz")) as tar:
        for m in tar.getmembers():
            program = m.name.split("/")[0]
            if m.isfile() and m.name.endswith(".sass") and program in fitting:
                text = tar.extractfile(m).read().decode()
                sass.setdefault(program, {}).update(functions(text))
    errors = []
    for program in sorted(fitting):
        path = os.path.join(DATA, "h200", program + ".csv")
        if not os.path.exists(path):
            continue
        for row in csv.DictReader(open(path)):
            rate = num(row["smsp__inst_executed.sum"]) / (
                num(row["gpu__time_duration.sum"]) * 1e-9 *
                num(row["sm__cycles_elapsed.avg.per_second"]) * SMS)
            if rate < PEAK / 2:
                continue
            name = re.sub(r"^void ", "", row["kernel"]).split("(")[0]
            name = re.sub(r"<.*", "", name).split("::")[-1]
            fns = [f for f in sass.get(program, {}) if name in f]
            if not fns:
                print("%-20s %-30s measured %.2f  (no SASS)" % (program, name[:30], rate))
                continue
            model, share = model_rate(sass[program][max(fns, key=lambda f: len(sass[program][f]))])
            errors.append(model / rate - 1)
            print("%-20s %-30s measured %.2f  model %.2f (%+4.0f%%)  %s" % (
                program, name[:30], rate, model, 100 * (model / rate - 1),
                " ".join("%s %.2f" % kv for kv in sorted(share.items()))))
    print("%d launches: model over measured, median %+.0f%%; within 10%%: %d" % (
        len(errors), 100 * statistics.median(errors), sum(abs(e) <= 0.10 for e in errors)))


if __name__ == "__main__":
    main()
