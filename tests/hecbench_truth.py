#!/usr/bin/env python3
"""gpulint's bounds, times and counts against HeCBench programs measured on
H200s, judged by half of the truth set's split.

usage: hecbench_truth.py GPULINT SRC_ROOT [--table FILE] [--summary FILE]

tests/data/hecbench/programs.json lists 101 programs of zjin-lcf/HeCBench
(drawn at random, tests/data/hecbench/README.md says how) with the
arguments their Makefiles run them with; h200/<name>.csv holds what Nsight
Compute measured of the first launch of each kernel, at the card's own
clocks. Each program is run through `gpulint SOURCES --gpu h200 --run-args
ARGS --format json -- FLAGS` and each measured launch is matched with the
launch gpulint found (kernel, then grid and block). Per launch:

  - the floor ("at least", min_time_s) must not exceed the measured time;
  - the predicted time, the warp instructions (smsp__inst_executed), the
    DRAM bytes (read + written) against the measurement, within 25%;
  - requested bytes found where the launch touched global memory.

A figure gpulint does not give is "not predicted", a miss, never a pass.
tests/data/truth-split.json splits every program of the truth sets once,
by program, into a fitting half and a judging half; the summary is given
for each (and for the judging half's HeCBench programs, which no rule or
constant of the model was shaped on). benchmarks/HECBENCH.md records each
half's counts; a count that falls below its record fails, so does a floor
above a measured time that the record does not list. --table writes the
per-launch table, --summary the summary block of benchmarks/HECBENCH.md.
With GPULINT_SWEEP=quick (the sanitizer stage) every twelfth program is run
and each of its launches must give the row that table records.
GPULINT_SWEEP_ONLY=NAME,NAME runs those programs and prints their rows,
with no summary and no check (for a look while working on a rule);
GPULINT_SWEEP_DUMP=FILE then writes those rows, time components included,
one JSON object a line.

Ends with "N passed, N failed"; exit 77 without nvcc.
"""

import csv
import json
import os
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402
from hecbench_flags import nvcc_args  # noqa: E402

GPULINT, SRC_ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TABLE = sys.argv[sys.argv.index("--table") + 1] if "--table" in sys.argv else None
SUMMARY = sys.argv[sys.argv.index("--summary") + 1] if "--summary" in sys.argv else None
DATA = os.path.join(SRC_ROOT, "tests", "data", "hecbench")
RECORD = os.path.join(SRC_ROOT, "benchmarks", "HECBENCH.md")
check = Checks()


def ok(what, cond, detail=""):
    return check(cond, what, detail)

def num(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return None


def base_name(kernel):
    """'void adam<float, float>(T1 *, ...)' -> 'adam<float, float>'."""
    k = re.sub(r"^(?:void|__global__ void)\s+", "", kernel.strip())
    depth, cut = 0, len(k)
    for i, ch in enumerate(k):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            cut = i
            break
    k = re.sub(r"(\d+)(?:ull|ul|ll|u|l)\b", r"\1", k[:cut].strip())
    # Nsight Compute prints a bool template argument as 0 or 1
    # ('ChannelShuffleNCHWKernel<float, 0>'); the source says false/true.
    return re.sub(r"\b(false|true)\b", lambda m: "1" if m.group(1) == "true" else "0", k)


def value(v):
    """A figure of gpulint's JSON as a number; None where it is not one
    (an expression left symbolic, a reason)."""
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def dims(s):
    return [int(x) for x in re.findall(r"\d+", s or "")][:3]


def measured(name):
    with open(os.path.join(DATA, "h200", name + ".csv")) as f:
        return list(csv.DictReader(f))


def report(item, extra=()):
    """(name, gpulint's JSON report or None, stderr); extra: more options."""
    name, p = item
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C",
               GPULINT_MODELS=os.path.join(SRC_ROOT, "models"))
    # Host files the build compiles with nvcc too (bwt's main.cpp): main's
    # sizes are there.
    srcs = [s for s in p["sources"] if s.endswith((".cu", ".cpp", ".cc", ".cxx"))]
    argv = [GPULINT, *srcs, "--gpu", "h200", "--format", "json", "-j", "1", "--timeout", "900",
            *extra, "--run-args", " ".join(p["args"]), "--",
            *nvcc_args(p["cflags"], os.path.join(DATA, "src", name))]
    r = subprocess.run(argv, cwd=os.path.join(DATA, "src", name), env=env, capture_output=True,
                       text=True, timeout=1800)
    try:
        return name, json.loads(r.stdout), r.stderr
    except json.JSONDecodeError:
        return name, None, (r.stderr or "no JSON").strip().splitlines()[-1:]


def launches_of(doc):
    """Every launch gpulint found, with its roofline entry."""
    roof = {}
    for e in doc.get("roofline", []):
        roof.setdefault((e.get("kernel"), e.get("file"), e.get("line")), e)
    out = []
    for k in doc.get("kernels", []):
        for l in k.get("launches", []):
            e = roof.get((l.get("kernel"), l.get("file"), l.get("line")))
            out.append({"kernel": base_name(l.get("kernel") or ""), "grid": l.get("grid"),
                        "block": l.get("block"), "line": l.get("line"), "roof": e,
                        "time_reason": (l.get("time") or {}).get("reason")})
    return out


def match(m, found):
    name = base_name(m["kernel"])
    same = [f for f in found if f["kernel"] == name]
    if not same:
        return None, "no launch of this kernel found"
    grid, block = dims(m["grid"]), dims(m["block"])
    exact = [f for f in same if f["grid"] == grid and f["block"] == block]
    if exact:
        return exact[0], None
    sized = [f for f in same if f["block"] == block]
    if len(same) == 1 or sized:
        f = (sized or same)[0]
        why = None
        if f["grid"] != grid or f["block"] != block:
            why = "launch found with grid %s block %s, measured %s %s" % (
                f["grid"], f["block"], grid, block)
        return f, why
    return same[0], "several launches, none with the measured shape"


def judge(name, half, m, found):
    row = {"program": name, "half": half, "kernel": base_name(m["kernel"]),
           "measured_s": num(m["gpu__time_duration.sum"]) * 1e-9,
           "insts": num(m["smsp__inst_executed.sum"]),
           "dram": num(m["dram__bytes_read.sum"]) + num(m["dram__bytes_write.sum"]),
           "sectors": num(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]) +
           num(m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"])}
    f, why = match(m, found)
    e = f["roof"] if f else None
    row["why"] = why or (None if e else "no roofline entry for the launch")
    e = e or {}
    row["floor"] = value(e.get("min_time_s"))
    row["floor_only"] = bool(e.get("floor_only"))
    row["predicted"] = value(e.get("predicted_time_s"))
    row["components"] = e.get("time_components")
    row["p_insts"] = value((e.get("issue") or {}).get("warp_instructions"))
    d = e.get("dram_bytes")
    row["p_dram"] = value(d.get("read")) + (value(d.get("write")) or 0) \
        if isinstance(d, dict) and value(d.get("read")) is not None else None
    row["requested"] = value(e.get("requested_bytes"))
    # l1tex__t_sectors of global loads and stores: the count the coalescing
    # analysis makes, sector by sector.
    t = e.get("l1_traffic") or {}
    ld, st = (t.get("global_load") or {}).get("sectors"), (t.get("global_store") or {}).get("sectors")
    row["p_sectors"] = ld + st if isinstance(ld, int) and isinstance(st, int) else None
    if f and row["predicted"] is None:
        row["why"] = "no predicted time: " + str(f.get("time_reason") or e.get("why_no_bound") or
                                                 ("the launch's grid is not known" if not f["grid"]
                                                  else "?"))
    return row


def err(p, m):
    return None if p is None or not m else p / m - 1


def summarize(rows):
    n = len(rows)
    def within(key, meas):
        return sum(1 for r in rows if err(r[key], r[meas]) is not None and
                   abs(err(r[key], r[meas])) <= 0.25)
    errs = [abs(err(r["predicted"], r["measured_s"])) for r in rows
            if err(r["predicted"], r["measured_s"]) is not None]
    # The median ratio is the floor's strength where every count is known;
    # floors from partial counts (floor_only) are bounds too, checked
    # against the measured time, and counted apart.
    ratios = [r["floor"] / r["measured_s"] for r in rows
              if r["floor"] and r["measured_s"] and not r["floor_only"]]
    partial = [r["floor"] / r["measured_s"] for r in rows
               if r["floor"] and r["measured_s"] and r["floor_only"]]
    touching = [r for r in rows if r["sectors"] and r["sectors"] > 0]
    return {
        "launches": n,
        "time_within_25": within("predicted", "measured_s"),
        "time_predicted": len(errs),
        "time_median_error": statistics.median(errs) if errs else None,
        "floors": len(ratios),
        "floor_over": sum(1 for r in rows if r["floor"] and r["floor"] > r["measured_s"]),
        "floor_median_ratio": statistics.median(ratios) if ratios else None,
        "partial_floors": len(partial),
        "partial_floor_median_ratio": statistics.median(partial) if partial else None,
        "insts_within_25": within("p_insts", "insts"),
        "dram_within_25": within("p_dram", "dram"),
        "requested_found": sum(1 for r in touching if r["requested"] and r["requested"] > 0),
        "touching": len(touching),
        "sectors_within_25": within("p_sectors", "sectors"),
    }


def pct(x):
    return "-" if x is None else "%.0f%%" % (100 * x)


def summary_lines(sums):
    out = ["<!-- hecbench: begin (tests/hecbench_truth.py --summary) -->",
           "| half | launches | time within 25% | median time error | floors > measured | "
           "median floor/measured | insts within 25% | DRAM within 25% | requested found | "
           "L1 sectors within 25% |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for half in ("fitting", "judging", "judging-hecbench"):
        s = sums[half]
        out.append("| %s | %d | %d | %s | %d | %s | %d | %d | %d of %d | %d of %d |" % (
            half, s["launches"], s["time_within_25"], pct(s["time_median_error"]),
            s["floor_over"], pct(s["floor_median_ratio"]), s["insts_within_25"],
            s["dram_within_25"], s["requested_found"], s["touching"],
            s["sectors_within_25"], s["touching"]))
    out.append("<!-- hecbench: end -->")
    return out


def table_line(r):
    """A launch's row of the table (benchmarks/HECBENCH.md's "## Launches")."""
    def us(x):
        return "-" if x is None else "%.4g us" % (x * 1e6)
    return "| %s | %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        r["half"], r["program"], r["kernel"][:60], us(r["measured_s"]), us(r["floor"]),
        us(r["predicted"]), pct(err(r["predicted"], r["measured_s"])),
        pct(err(r["p_insts"], r["insts"])), pct(err(r["p_dram"], r["dram"])),
        pct(err(r["p_sectors"], r["sectors"])), (r["why"] or "").replace("|", "/")[:120])


def recorded_lines():
    """The rows of benchmarks/HECBENCH.md's per-launch table, as written."""
    text = open(RECORD, encoding="utf-8").read().split("\n## Launches", 1)[-1]
    return {line for line in text.splitlines() if line.startswith("| fitting |") or
            line.startswith("| judging |")}


def quick_check(rows, names):
    """The sanitizer stage runs a sixth of the programs; each of their
    launches must give the row the record holds (the plain build judges
    every program against the summary)."""
    lines = recorded_lines()
    for r in rows:
        line = table_line(r)
        ok(f"{r['program']} {r['kernel'][:40]}: the recorded row", line in lines, line)
    print(f"GPULINT_SWEEP=quick: {len(names)} programs judged row by row against "
          "benchmarks/HECBENCH.md (the plain build runs them all)")
    return check.finish()


def recorded():
    """{half: {column: count}} from benchmarks/HECBENCH.md's summary."""
    rec = {}
    if not os.path.exists(RECORD):
        return rec
    text = open(RECORD, encoding="utf-8").read()
    block = text.split("<!-- hecbench: begin", 1)[-1].split("<!-- hecbench: end", 1)[0]
    for line in block.splitlines():
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) >= 9 and c[0] in ("fitting", "judging", "judging-hecbench"):
            rec[c[0]] = {"launches": int(c[1]), "time_within_25": int(c[2]),
                         "floor_over": int(c[4]), "insts_within_25": int(c[6]),
                         "dram_within_25": int(c[7]),
                         "requested_found": int(c[8].split()[0])}
            if len(c) >= 10:
                rec[c[0]]["sectors_within_25"] = int(c[9].split()[0])
    return rec


def main():
    skip_without_nvcc()
    programs = json.load(open(os.path.join(DATA, "programs.json")))["programs"]
    split = json.load(open(os.path.join(SRC_ROOT, "tests", "data", "truth-split.json")))
    half_of = {n: "fitting" for n in split["fitting"]}
    half_of.update({n: "judging" for n in split["judging"]})
    jobs = max(1, os.cpu_count() or 1)
    rows = []
    chosen = sorted(programs.items())
    quick = os.environ.get("GPULINT_SWEEP") == "quick"
    if quick:
        chosen = chosen[::12]
    # A look at a few programs while working on a rule: their rows, no summary.
    only = [n for n in os.environ.get("GPULINT_SWEEP_ONLY", "").split(",") if n]
    if only:
        chosen = [(n, p) for n, p in chosen if n in only]
    with ThreadPoolExecutor(jobs) as pool:
        for name, doc, stderr in pool.map(report, chosen):
            half = half_of.get("hecbench/" + name)
            ok(f"{name}: in the split", half is not None, "not in truth-split.json")
            found = launches_of(doc) if doc else []
            for m in measured(name):
                r = judge(name, half, m, found)
                if doc is None:
                    r["why"] = "gpulint gave no report: %s" % " ".join(stderr)
                rows.append(r)
    if quick:
        return quick_check(rows, [n for n, _ in chosen])
    if only:
        for r in rows:
            print(table_line(r))
        # Each row with its time components, for a look at how the terms
        # combine (one JSON object a line).
        if os.environ.get("GPULINT_SWEEP_DUMP"):
            with open(os.environ["GPULINT_SWEEP_DUMP"], "w", encoding="utf-8") as f:
                for r in rows:
                    f.write(json.dumps(r) + "\n")
        return 0
    sums = {h: summarize([r for r in rows if r["half"] == h]) for h in ("fitting", "judging")}
    sums["judging-hecbench"] = sums["judging"]  # every judged launch here is HeCBench's
    for line in summary_lines(sums):
        print(line)
    rec = recorded()
    for half in ("fitting", "judging"):
        if half not in rec:
            ok(f"{half}: recorded in benchmarks/HECBENCH.md", False, "no record")
            continue
        s, r = sums[half], rec[half]
        ok(f"{half}: {s['launches']} launches, as recorded", s["launches"] == r["launches"],
                    f"{s['launches']} launches, the record has {r['launches']}")
        for key in ("time_within_25", "insts_within_25", "dram_within_25", "requested_found",
                    "sectors_within_25"):
            if key not in r:
                continue
            ok(f"{half}: {key} {s[key]}, at least the {r[key]} recorded", s[key] >= r[key],
                        f"{s[key]} < {r[key]}")
        ok(f"{half}: {s['floor_over']} floors above the measured time, at most the "
                    f"{r['floor_over']} recorded", s["floor_over"] <= r["floor_over"],
                    f"{s['floor_over']} > {r['floor_over']}")
        print(f"     {half}: {s['floors']} floors from counts all known (median "
              f"{pct(s['floor_median_ratio'])} of the measured time), {s['partial_floors']} from "
              f"the counts that are known (median {pct(s['partial_floor_median_ratio'])})")
    if TABLE:
        with open(TABLE, "w") as f:
            f.write("| half | program | kernel | measured | floor | predicted | error | "
                    "insts error | DRAM error | L1 sectors error | note |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|\n")
            for r in sorted(rows, key=lambda r: (r["half"] or "", r["program"], r["kernel"])):
                f.write(table_line(r) + "\n")
    if SUMMARY:
        with open(SUMMARY, "w") as f:
            f.write("\n".join(summary_lines(sums)) + "\n")
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
