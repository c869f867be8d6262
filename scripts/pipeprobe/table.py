#!/usr/bin/env python3
"""Per copy of each probed PTX instruction, the warp instructions Nsight
Compute counted on each pipe: ((probe 48 - probe 16) - (base 48 - base
16)) / 32 (see pipeprobe.cu). Usage: table.py PIPES.csv[.gz] GEN.py;
prints TSV (name, all, then one column a pipe). tests/pipes_probe.py
imports per_copy()."""
import csv
import gzip
import re
import sys


def num(s):
    try:
        return float(s.replace(",", ""))
    except (AttributeError, ValueError):
        return 0.0


def kinds(gen_py):
    """name -> the type whose separator the probe uses, from gen.py's OPS."""
    out = {}
    with open(gen_py) as f:
        for line in f:
            m = re.match(r'\s*\("(\w+)", ".*", "(\w+)"\),', line)
            if m:
                out[m.group(1)] = m.group(2)
    return out


def per_copy(csv_path, gen_py):
    """{name: {metric short name: per-copy count}}; 'all' is smsp__inst_executed."""
    opener = gzip.open if csv_path.endswith(".gz") else open
    with opener(csv_path, "rt") as f:
        rows = [r for r in csv.DictReader(l for l in f if not l.startswith("=="))
                if r.get("ID", "").isdigit()]
    metrics = [k for k in rows[0] if k.startswith("smsp__inst_executed")
               and not k.endswith(("pred_off_all.sum", "pred_on_any.sum"))]
    short = {k: k.replace("smsp__inst_executed_pipe_", "").replace(".sum", "")
             .replace("smsp__inst_executed", "all") for k in metrics}
    by = {}
    for r in rows:
        m = re.match(r"k_(\d+)_(\w+)\(", r["Kernel Name"])
        if m:
            by[(int(m.group(1)), m.group(2))] = r
    out = {}
    for name, kind in kinds(gen_py).items():
        base = "base_" + kind
        if (16, name) not in by or (48, name) not in by:
            continue
        out[name] = {short[k]: ((num(by[(48, name)][k]) - num(by[(16, name)][k])) -
                                (num(by[(48, base)][k]) - num(by[(16, base)][k]))) / 32
                     for k in metrics}
    return out


def main():
    table = per_copy(sys.argv[1], sys.argv[2])
    cols = ["all", "alu", "fmaheavy", "fmalite", "fp64", "xu"]
    print("\t".join(["name"] + cols))
    for name, v in table.items():
        print("\t".join([name] + [f"{v.get(c, 0):g}" for c in cols]))


if __name__ == "__main__":
    main()
