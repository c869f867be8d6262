#!/usr/bin/env python3
"""Sums a whole run's launches, as scripts/hecbench/ncu-shares.sh records
them (Nsight Compute's raw CSV, one row per launch), per kernel, grid and
block: the files tests/program_shares.py reads.

    shares-condense.py RAW.csv OUT.csv

RAW.csv may hold ncu's own lines before the header (==PROF== ...) and a
units row after it; a run cut short ends in a "### cut" line, and such a
file is refused (its shares would be of part of the run). Times are
written in nanoseconds, whatever unit the run reported them in.
"""
import csv
import sys

SCALE = {"nsecond": 1, "ns": 1, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
         "second": 1e9, "s": 1e9}


def main():
    raw, out = sys.argv[1], sys.argv[2]
    lines = open(raw, encoding="utf-8", errors="replace").read().splitlines()
    if any(line.startswith("### cut") for line in lines):
        sys.exit("%s: the run was cut short; its shares would be of part of it" % raw)
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        sys.exit("%s: no Nsight Compute header" % raw)
    rows = list(csv.reader(lines[start:]))
    head, units = rows[0], rows[1]
    col = {name: i for i, name in enumerate(head)}
    t = col["gpu__time_duration.sum"]
    scale = SCALE.get(units[t].strip(), None)
    if scale is None:
        sys.exit("%s: time in an unknown unit '%s'" % (raw, units[t]))
    sums, order = {}, []
    for r in rows[2:]:
        if len(r) != len(head) or not r[0].isdigit():
            continue
        key = (r[col["Kernel Name"]], r[col["Grid Size"]], r[col["Block Size"]])
        if key not in sums:
            sums[key] = [0, 0.0]
            order.append(key)
        sums[key][0] += 1
        sums[key][1] += float(r[t].replace(",", "")) * scale
    with open(out, "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_MINIMAL)
        w.writerow(["kernel", "grid", "block", "launches", "total_ns"])
        for key in order:
            w.writerow([*key, sums[key][0], int(round(sums[key][1]))])


main()
