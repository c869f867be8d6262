#!/usr/bin/env python3
"""Where a whole program's GPU time goes, predicted (gpulint --entry main)
against one measured run, for HeCBench programs whose main launches
several kernels in loops.

usage: program_shares.py GPULINT SRC_ROOT [--table FILE]

tests/data/hecbench/h200-shares/NAME.csv holds every launch of one run of
the program on an H200, timed by Nsight Compute and summed per kernel,
grid and block (scripts/hecbench/ncu-shares.sh; README.md there). Each
program is run through `gpulint SOURCES --gpu h200 --entry main --run-args
ARGS --format json -- FLAGS`, and per kernel function (template arguments
kept) the predicted share of main's GPU time is set against the measured
share. A program passes when every kernel above 5% of the measured time
is within 25% of its measured share (relative) and the three kernels that
take the most time are the same, in the same order; a program whose
prediction is not complete (a count or a time gpulint cannot give) fails.
The launch counts per kernel are compared too (they are exact or wrong).

benchmarks/HECBENCH.md records how many programs of each half pass; fewer
fails. --table writes the per-kernel table of that page. With
GPULINT_SWEEP=quick (the sanitizer stage) every other program is run and
each of its rows must be the one that table records.

Ends with "N passed, N failed"; exit 77 without nvcc.
"""

import csv
import json
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402
from hecbench_truth import base_name, report  # noqa: E402

GPULINT, SRC_ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TABLE = sys.argv[sys.argv.index("--table") + 1] if "--table" in sys.argv else None
DATA = os.path.join(SRC_ROOT, "tests", "data", "hecbench")
SHARES = os.path.join(DATA, "h200-shares")
RECORD = os.path.join(SRC_ROOT, "benchmarks", "HECBENCH.md")
check = Checks()


def measured(name):
    """{kernel: [launches, seconds]} of the recorded run."""
    out = {}
    with open(os.path.join(SHARES, name + ".csv")) as f:
        for r in csv.DictReader(f):
            k = out.setdefault(base_name(r["kernel"]), [0, 0.0])
            k[0] += int(r["launches"])
            k[1] += int(r["total_ns"]) * 1e-9
    return out


def predicted(item):
    name, doc, err = report(item, ["--entry", "main"])
    return name, (doc or {}).get("entry"), None if doc else err


def per_kernel(entry):
    """{kernel: [launches or None, seconds or None]} of gpulint's entry."""
    out = {}
    for r in entry["launches"]:
        k = out.setdefault(base_name(r["kernel"]), [0, 0.0])
        k[0] = None if k[0] is None or r["launches"] is None else k[0] + r["launches"]
        t = r.get("total_s")
        k[1] = None if k[1] is None or t is None else k[1] + t
    return out


def judge(name, half, entry, err):
    m = measured(name)
    total_m = sum(v[1] for v in m.values())
    rows, why = [], None
    p = per_kernel(entry) if entry else {}
    complete = bool(entry) and all(v[1] is not None for v in p.values())
    total_p = sum(v[1] for v in p.values() if v[1] is not None)
    if not entry:
        why = "no prediction: %s" % (err or "?")
    elif not complete:
        why = "prediction not complete: a count or a time is not known"
    for k, (n, t) in sorted(m.items(), key=lambda kv: -kv[1][1]):
        pn, pt = p.get(k, [None, None])
        rows.append({"program": name, "half": half, "kernel": k, "launches": n,
                     "p_launches": pn, "share": t / total_m if total_m else 0,
                     "p_share": pt / total_p if pt is not None and total_p else None})
    for k in p:
        if k not in m:
            rows.append({"program": name, "half": half, "kernel": k, "launches": 0,
                         "p_launches": p[k][0], "share": 0.0,
                         "p_share": p[k][1] / total_p if p[k][1] is not None and total_p
                         else None})
    big = [r for r in rows if r["share"] > 0.05]
    shares_ok = complete and all(
        r["p_share"] is not None and abs(r["p_share"] / r["share"] - 1) <= 0.25 for r in big)
    top_m = [r["kernel"] for r in sorted(rows, key=lambda r: -r["share"])[:3]]
    # Kernels predicted to take equal time are not ranked by the prediction:
    # the tie goes by name, not by the measured order rows come in.
    top_p = [r["kernel"] for r in sorted(rows, key=lambda r: (-(r["p_share"] or 0), r["kernel"]))[:3]]
    ranking_ok = complete and top_m == top_p
    if not why and not shares_ok:
        why = "a kernel above 5% is off its share by more than 25%"
    if not why and not ranking_ok:
        why = "the top three differ: measured %s, predicted %s" % (top_m, top_p)
    known = [r for r in rows if r["p_launches"] is not None]
    counts = "differ" if any(r["p_launches"] != r["launches"] for r in known) else \
        "exact" if len(known) == len(rows) else "exact where known (%d of %d kernels)" % (
            len(known), len(rows))
    return {"program": name, "half": half, "rows": rows, "pass": shares_ok and ranking_ok,
            "why": why, "counts": counts}


def table(results):
    out = ["| program | half | kernel | launches (measured) | predicted | share (measured) "
           "| predicted | |", "|---|---|---|---|---|---|---|---|"]
    for res in results:
        for r in res["rows"]:
            ps = "-" if r["p_share"] is None else "%.1f%%" % (100 * r["p_share"])
            off = "" if r["p_share"] is None or not r["share"] else \
                "%+.0f%%" % (100 * (r["p_share"] / r["share"] - 1))
            out.append("| %s | %s | `%s` | %d | %s | %.1f%% | %s | %s |" % (
                r["program"], r["half"], r["kernel"][:60], r["launches"],
                "-" if r["p_launches"] is None else r["p_launches"], 100 * r["share"], ps, off))
        out.append("| %s | | **%s** | | | | | %s |" % (
            res["program"], "pass" if res["pass"] else "fail", res["why"] or ""))
    return "\n".join(out) + "\n"


def recorded():
    """{half: programs passing} from the record's summary line."""
    text = open(RECORD).read()
    m = re.search(r"<!-- shares: (\d+) of (\d+) fitting, (\d+) of (\d+) judging -->", text)
    return (int(m.group(1)), int(m.group(3))) if m else (0, 0)


def main():
    skip_without_nvcc()
    progs = json.load(open(os.path.join(DATA, "programs.json")))["programs"]
    split = json.load(open(os.path.join(SRC_ROOT, "tests", "data", "truth-split.json")))
    names = sorted(f[:-4] for f in os.listdir(SHARES) if f.endswith(".csv"))
    quick = os.environ.get("GPULINT_SWEEP") == "quick"
    if quick:
        names = names[::2]
    half = {n: ("judging" if "hecbench/" + n in split["judging"] else "fitting") for n in names}
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as ex:
        got = list(ex.map(predicted, [(n, progs[n]) for n in names]))
    results = [judge(n, half[n], e, err) for n, e, err in got]
    for res in results:
        print("%-4s %s (%s): %s; launch counts %s" % (
            "pass" if res["pass"] else "miss", res["program"], res["half"],
            res["why"] or "every kernel above 5% within 25% of its share, top three alike",
            res["counts"]))
    if quick:
        # The sanitizer stage: every other program, each row the one the
        # record holds (the plain build judges all against the summary).
        record_lines = set(open(RECORD).read().splitlines())
        for res in results:
            rows = table([res]).splitlines()[2:]
            wrong = [r for r in rows if r not in record_lines]
            check(not wrong, "%s: the rows benchmarks/HECBENCH.md records" % res["program"],
                  " ".join(wrong[:2]))
        print("GPULINT_SWEEP=quick: %d programs judged row by row (the plain build runs all)"
              % len(names))
        check.finish()
        return
    passing = {h: sum(1 for r in results if r["half"] == h and r["pass"])
               for h in ("fitting", "judging")}
    total = {h: sum(1 for r in results if r["half"] == h) for h in ("fitting", "judging")}
    line = "<!-- shares: %d of %d fitting, %d of %d judging -->" % (
        passing["fitting"], total["fitting"], passing["judging"], total["judging"])
    print(line)
    rec = recorded()
    check(passing["fitting"] >= rec[0],
          "fitting: %d programs' shares hold, at least the %d recorded" % (passing["fitting"], rec[0]))
    check(passing["judging"] >= rec[1],
          "judging: %d programs' shares hold, at least the %d recorded" % (passing["judging"], rec[1]))
    wrong = [r["program"] for r in results if r["counts"] == "differ"]
    check(not wrong, "launch counts equal the measured ones wherever gpulint gives one",
          " ".join(wrong))
    check(len(results) == len(names) and len(names) >= 10,
          "%d programs with a recorded whole run" % len(names))
    if TABLE:
        with open(TABLE, "w") as f:
            f.write(table(results))
    check.finish()


main()
