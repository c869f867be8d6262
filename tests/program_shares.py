#!/usr/bin/env python3
"""Where a whole program's GPU time goes, predicted (gpulint --entry main)
against measured whole runs, for HeCBench programs whose main launches
several kernels in loops.

usage: program_shares.py GPULINT SRC_ROOT [--table FILE]

tests/data/hecbench/h200-shares/NAME.csv holds every launch of one run of
the program on an H200, timed by Nsight Compute and summed per kernel,
grid and block (scripts/hecbench/ncu-shares.sh; README.md there), and
h200-shares/run2/NAME.csv .. a further run each; a kernel's measured
share is the runs' mean. Each
program is run through `gpulint SOURCES --gpu h200 --entry main --run-args
ARGS --format json -- FLAGS`, and per kernel function (template arguments
kept) the predicted share of main's GPU time is set against the measured
share. A program passes when every kernel above 5% of the measured time
is within 25% of its measured share (relative) and the three kernels that
take the most time are the same, in the same order, wherever the runs
agree on that order (ranked_alike); a program whose
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


def run_files(name):
    """The program's recorded whole runs: the first, then run2/, run3/..."""
    files = [os.path.join(SHARES, name + ".csv")]
    for d in sorted(x for x in os.listdir(SHARES) if re.fullmatch(r"run\d+", x)):
        f = os.path.join(SHARES, d, name + ".csv")
        if os.path.exists(f):
            files.append(f)
    return files


def measured_run(path):
    """{kernel: [launches, seconds]} of one recorded run."""
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            k = out.setdefault(base_name(r["kernel"]), [0, 0.0])
            k[0] += int(r["launches"])
            k[1] += int(r["total_ns"]) * 1e-9
    return out


def measured(name):
    """{kernel: [launches, [share in each run]]}: the launches of the first
    run (every run makes the same ones), each run's share of its own GPU
    time (a run on another card, or at another clock, shifts all its
    kernels together; the shares cancel that)."""
    runs = [measured_run(f) for f in run_files(name)]
    out = {}
    for run in runs:
        total = sum(v[1] for v in run.values())
        for k, (n, t) in run.items():
            out.setdefault(k, [n, []])[1].append(t / total if total else 0.0)
    for v in out.values():
        v[1] += [0.0] * (len(runs) - len(v[1]))
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


def ranked_alike(rows):
    """Whether the prediction ranks the three kernels that take the most
    time as the measurement does. The measurement ranks kernel a above b
    only where a's share in every recorded run exceeds b's in every run: a
    gap smaller than the runs' own spread is no ranking (fpc's two kernels
    at 50.1% and 49.9%). Every such pair that holds one of the measured
    top three must come out in the same order in the prediction, where
    kernels predicted to take equal time are ranked by name (a prediction
    that cannot tell them apart does not pass on the measured order)."""
    by_m = sorted(rows, key=lambda r: -r["share"])
    by_p = sorted(rows, key=lambda r: (-(r["p_share"] or 0), r["kernel"]))
    place = {r["kernel"]: i for i, r in enumerate(by_p)}
    top = by_m[:3]
    ok = all(place[a["kernel"]] < place[b["kernel"]]
             for a in rows for b in rows
             if (a in top or b in top) and min(a["runs"]) > max(b["runs"]))
    return ok, [r["kernel"] for r in top], [r["kernel"] for r in by_p[:3]]


def mean(xs):
    return sum(xs) / len(xs)


def judge(name, half, entry, err):
    m = measured(name)
    rows, why = [], None
    p = per_kernel(entry) if entry else {}
    complete = bool(entry) and all(v[1] is not None for v in p.values())
    total_p = sum(v[1] for v in p.values() if v[1] is not None)
    if not entry:
        why = "no prediction: %s" % (err or "?")
    elif not complete:
        why = "prediction not complete: a count or a time is not known"
    for k, (n, runs) in sorted(m.items(), key=lambda kv: -mean(kv[1][1])):
        pn, pt = p.get(k, [None, None])
        rows.append({"program": name, "half": half, "kernel": k, "launches": n,
                     "p_launches": pn, "share": mean(runs), "runs": runs,
                     "p_share": pt / total_p if pt is not None and total_p else None})
    for k in p:
        if k not in m:
            rows.append({"program": name, "half": half, "kernel": k, "launches": 0,
                         "p_launches": p[k][0], "share": 0.0, "runs": [0.0],
                         "p_share": p[k][1] / total_p if p[k][1] is not None and total_p
                         else None})
    big = [r for r in rows if r["share"] > 0.05]
    shares_ok = complete and all(
        r["p_share"] is not None and abs(r["p_share"] / r["share"] - 1) <= 0.25 for r in big)
    ranking_ok, top_m, top_p = ranked_alike(rows)
    ranking_ok = complete and ranking_ok
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
    out = ["| program | half | kernel | launches (measured) | predicted | share (measured: mean, runs) "
           "| predicted | |", "|---|---|---|---|---|---|---|---|"]
    for res in results:
        for r in res["rows"]:
            ps = "-" if r["p_share"] is None else "%.1f%%" % (100 * r["p_share"])
            off = "" if r["p_share"] is None or not r["share"] else \
                "%+.0f%%" % (100 * (r["p_share"] / r["share"] - 1))
            share = "%.1f%%" % (100 * r["share"])
            if len(r["runs"]) > 1:
                share += " (%.1f-%.1f)" % (100 * min(r["runs"]), 100 * max(r["runs"]))
            out.append("| %s | %s | `%s` | %d | %s | %s | %s | %s |" % (
                r["program"], r["half"], r["kernel"][:60], r["launches"],
                "-" if r["p_launches"] is None else r["p_launches"], share, ps, off))
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
