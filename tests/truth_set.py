#!/usr/bin/env python3
"""gpulint's static predictions against the real-kernel truth set.

usage: truth_set.py GPULINT SRC_ROOT [--table FILE]

tests/data/truth/programs.json lists public programs (PolyBench-ACC,
cuda-samples, Rodinia, flash-attention-minimal; licences beside them) with
the flags their repositories build them with and the sizes their runs use;
tests/data/truth/h100/ holds what Nsight Compute measured on an H100 for
the first launch of each kernel (scripts/ncu-truth.py). Each program is run
through `gpulint FILE --gpu h100-sxm --format json` (sizes chosen at run
time given with --define), and per kernel:

  - FP32 and FP64 FLOPs within 1% of the SASS counters (ADD + MUL + 2 FMA);
  - total shared-memory wavefronts within 10% of the SASS-patched counters
    (a site no lane of the block reaches counts none);
  - global sectors per request within 10%, where every analysed load (or
    store) site of the kernel has the same figure;
  - the launch's occupancy equal to Nsight Compute's theoretical occupancy;
  - the DRAM bytes every input must be read with (the footprint, caches
    flushed as Nsight Compute does) at most the measured DRAM reads;
  - every "at least" time at most the measured time;
  - the SASS reader against the hardware: each program is given its
    recorded SASS listing with line information (tests/data/truth/sass) with --sass,
    and for a loop-free kernel the measured FP32/FP64 FLOPs per thread, and
    shared load and store instructions per warp, are at most the static
    counts of its code (equal when no branch is guarded).

A figure gpulint leaves unknown or labels incomplete is "not predicted",
never a pass. A mismatch listed in tests/data/truth/misses.json (kernel,
check, cause) is printed as a known miss; an unlisted one fails, and so does
a listed miss that no longer happens (the list must stay true). --table
writes the kernel/predicted/measured/verdict table of benchmarks/TRUTH.md.
Ends with "N passed, N failed"; exit 77 without nvcc.
"""

import csv
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402

GPULINT, SRC_ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TABLE = sys.argv[sys.argv.index("--table") + 1] if "--table" in sys.argv else None
TIMES = sys.argv[sys.argv.index("--times") + 1] if "--times" in sys.argv else None
DRAMS = sys.argv[sys.argv.index("--dram") + 1] if "--dram" in sys.argv else None
# --device h200: the H200's recordings (tests/data/truth/h200: time and
# DRAM bytes) against the constants probed on the same card
# (tests/data/truth/h200/card.ini; two H200s streamed 4.59 and 3.22 TB/s):
# the "at least" times are judged (a bound holds on every card), the
# predicted times summed up against benchmarks/TIME-H200.md; the other
# figures do not depend on the card and are judged on the H100.
DEVICE = sys.argv[sys.argv.index("--device") + 1] if "--device" in sys.argv else "h100"
TRUTH = os.path.join(SRC_ROOT, "tests", "data", "truth")
GPU_MODEL = {"h100": "h100-sxm", "h200": os.path.join(TRUTH, "h200", "card.ini")}[DEVICE]
check = Checks()
rows = []
times = []  # (program, kernel, predicted s, measured s, limiter)
insts = []  # (program, kernel, predicted warp instructions, measured, level)
drams = []  # (program, kernel, predicted DRAM bytes, measured, label)
SASS_DIR = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"gpulint-truth-sass-{os.getpid()}")


def measured(tag, kernel):
    """The recording's metrics; another card's recording holds the time and
    DRAM bytes only, over the H100's figures that do not depend on the card."""
    out = measured_on("h100", tag, kernel) if DEVICE != "h100" else {}
    out.update(measured_on(DEVICE, tag, kernel))
    return out


def measured_on(device, tag, kernel):
    path = os.path.join(TRUTH, device, f"{tag}.{kernel}.csv")
    out = {}
    with open(path) as f:
        for r in csv.reader(f):
            if len(r) == 15 and r[0] != "ID":
                try:  # "n/a" and "nan" where the launch did not run
                    v = float(r[14].replace(",", ""))
                except ValueError:
                    v = math.nan
                out[r[12]] = v if math.isfinite(v) else 0.0
    return out


def flops(m, p):
    return (m[f"smsp__sass_thread_inst_executed_op_{p}add_pred_on.sum"] +
            m[f"smsp__sass_thread_inst_executed_op_{p}mul_pred_on.sum"] +
            2 * m[f"smsp__sass_thread_inst_executed_op_{p}fma_pred_on.sum"])


def kernel_spec(p, k):
    """(name measured, name in gpulint's report, --define values) of a kernel
    entry: a string, or {"name", "gpulint", "defines", "run"} where one
    program's kernels run with different sizes or are template
    instantiations."""
    if isinstance(k, str):
        return k, k, tuple(p["defines"])
    return k["name"], k.get("gpulint", k["name"]), tuple(k.get("defines", p["defines"]))


def same_name(a, b):
    """Template arguments as the demangler writes them (256u, 128ul) or not."""
    def plain(s):
        return re.sub(r"(\d+)(?:ull|ul|ll|u|l)\b", r"\1", s)
    return plain(a) == plain(b)


def report(job):
    p, defines = job
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C",
               GPULINT_MODELS=os.path.join(SRC_ROOT, "models"))
    defs = [a for d in defines for a in ("--define", d)]
    sass = os.path.join(SASS_DIR, p["dir"].replace("/", "_").replace("polybench-acc", "polybench")
                        + ".sass")
    # Predicted times at the clock Nsight Compute locked for the recordings.
    # --timeout: this test judges the numbers, not the speed; OneFlow's file
    # takes about 400 s of CPU and CI runs both truth passes side by side on
    # two cores, so the default 600 s would skip its source analysis there.
    argv = [GPULINT, p["file"], "--gpu", GPU_MODEL, "--clock", "base", "--format", "json",
            "--sass", sass, "--timeout", "2400", *defs,
            *p["gpulint"]]
    r = subprocess.run(argv, cwd=os.path.join(TRUTH, p["dir"]), env=env, capture_output=True,
                       text=True, timeout=3000)
    return p, defines, r


def without_params(name):
    """k<T, (ns::E)0>(T, long) -> k<T, (ns::E)0>: the parameter list only
    (a cast in the template arguments has parentheses too)."""
    return name[:name.rindex(">(") + 1] if ">(" in name else name.split("(")[0]


def unqualified(name):
    """ns::k<ns::T, 4> -> k<ns::T, 4>: ptxas names a kernel with its
    namespaces, gpulint's variants without."""
    head, sep, tail = name.partition("<")
    # An enum argument prints as a cast, (ns::Algorithm)0, in one and 0 in
    # the other.
    tail = re.sub(r"\((?:\w+::)*\w+\)(?=-?\d)", "", tail)
    return head.rsplit("::", 1)[-1] + sep + tail


def first(rows_, kernel):
    """The kernel's first launch in source order: the one measured."""
    mine = [r for r in rows_ if same_name(r["kernel"], kernel)]
    return min(mine, key=lambda r: r.get("line", 0)) if mine else None


def judge(p, defines, d, misses):
    tag = p["name"].replace("/", "_")
    for entry in p["kernels"]:
        k, gk, kdefs = kernel_spec(p, entry)
        if kdefs != defines:
            continue
        m = measured(tag, k)
        if not m.get("gpu__time_duration.sum"):
            check(False, f"{p['name']} {k}: no measurement recorded")
            continue
        took = m["gpu__time_duration.sum"] * 1e-9
        roof = first(d["roofline"], gk)

        def verdict(what, pred, meas, ok):
            key = f"{p['name']}:{k}:{what}"
            rows.append((p["name"], k, what, pred, meas,
                         "agree" if ok else ("miss" if key in misses else "differ")))
            if DEVICE != "h100" and what != "at least time":
                return
            if ok:
                check(key not in misses, f"{key}: {pred} as measured ({meas})",
                      "listed in misses.json, but it agrees now")
            elif key in misses:
                print(f"miss {key}: predicted {pred}, measured {meas}: {misses[key]}")
            else:
                check(False, f"{key}: predicted {pred}, measured {meas}")

        for prec, sass in (("fp32", "f"), ("fp64", "d")):
            meas = flops(m, sass)
            pred = roof["flops"][prec] if roof else None
            if not isinstance(pred, (int, float)) or roof.get("counts") == "incomplete":
                if meas:
                    verdict(f"{prec} FLOPs", "not predicted", f"{meas:.4g}", False)
                continue
            if pred or meas:
                verdict(f"{prec} FLOPs", f"{pred:.4g}", f"{meas:.4g}",
                        abs(pred - meas) <= 0.01 * max(meas, 1))
        waves = m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] + \
            m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
        sites = [a for a in d["shared_accesses"] if same_name(a["kernel"], gk)]
        if sites or waves:
            # A site no lane reaches with the launch's block (code for
            # larger blocks, `if (blockSize >= 512)`) makes no request.
            tot = [a.get("grid_totals") or
                   ({"exact": True, "wavefronts": 0}
                    if (a.get("reason") or "").startswith("no lane of the block reaches") else None)
                   for a in sites]
            if sites and all(t and t.get("exact") for t in tot):
                pred = sum(t["wavefronts"] for t in tot)
                verdict("shared wavefronts", f"{pred:.4g}", f"{waves:.4g}",
                        abs(pred - waves) <= 0.1 * max(waves, 1))
            else:
                verdict("shared wavefronts", "not predicted", f"{waves:.4g}", False)
        for op, kind in (("ld", "load"), ("st", "store")):
            req = m[f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"]
            sec = m[f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"]
            if not req:
                continue
            got = {a.get("average_sectors") for a in d["global_accesses"]
                   if same_name(a["kernel"], gk) and a["kind"] == kind and a.get("analyzed")}
            if len(got) == 1 and None not in got:
                (s,) = got
                verdict(f"global {kind} sectors/request", f"{s:.3g}", f"{sec / req:.3g}",
                        abs(s - sec / req) <= 0.1 * (sec / req))
        # Every sector L1 looks up for the launch's global loads and stores,
        # hit or miss (issue 19: within 10%).
        meas_sec = sum(m[f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"] for op in ("ld", "st"))
        tr = roof.get("l1_traffic") if roof else None
        if tr or meas_sec:
            if tr:
                pred = tr["global_load"]["sectors"] + tr["global_store"]["sectors"]
                about = {"exact": "", "lower_bound": "at least "}.get(tr["label"], "about ")
                verdict("global sectors", f"{about}{pred:.4g}", f"{meas_sec:.4g}",
                        abs(pred - meas_sec) <= 0.1 * max(meas_sec, 1))
            else:
                verdict("global sectors", "not predicted", f"{meas_sec:.4g}", False)
        occ = None
        for kr in d["kernels"]:
            for ln in kr.get("launches") or []:
                if same_name(ln["kernel"], gk) and ln.get("occupancy") and occ is None:
                    occ = ln["occupancy"]["occupancy"]
        theo = m["sm__maximum_warps_per_active_cycle_pct"] / 100
        if occ is None:
            verdict("occupancy", "not predicted", f"{theo:.3f}", False)
        else:
            verdict("occupancy", f"{occ:.3f}", f"{theo:.3f}", abs(occ - theo) < 1e-3)
        code = next((kr.get("code") for kr in d["kernels"]
                     if kr["name"] == gk or same_name(unqualified(without_params(kr["demangled"])),
                                                      gk)), None)
        if not check(code is not None and code["level"] == "sass",
                     f"{p['name']} {k}: the SASS listing has the kernel"):
            continue
        threads = m["launch__grid_size"] * m["launch__block_size"]
        for prec, sass in (("fp32", "f"), ("fp64", "d")):
            per_thread, static = flops(m, sass) / threads, code["static_flops"][prec]
            if not (per_thread or static):
                continue
            if code["loops"] == 0 and code["guarded_branches"] == 0:
                verdict(f"{prec} SASS FLOPs per thread", f"{static:g}", f"{per_thread:.4g}",
                        abs(per_thread - static) <= 1e-6 * max(static, 1))
            elif code["loops"] == 0:
                verdict(f"{prec} SASS FLOPs per thread", f"at most {static:g}",
                        f"{per_thread:.4g}", per_thread <= static * (1 + 1e-6))
        warps = m["launch__grid_size"] * -(-m["launch__block_size"] // 32)
        for op, cls in (("ld", "shared_load"), ("st", "shared_store")):
            per_warp = m[f"smsp__sass_inst_executed_op_shared_{op}.sum"] / warps
            static = code["mix"].get(cls, 0)
            if code["loops"] or not (per_warp or static):
                continue
            exact = code["guarded_branches"] == 0
            verdict(f"SASS {cls.replace('_', ' ')}s per warp",
                    f"{static:g}" if exact else f"at most {static:g}", f"{per_warp:.4g}",
                    abs(per_warp - static) <= 1e-6 * static if exact
                    else per_warp <= static * (1 + 1e-6))
        comp = roof.get("dram_compulsory_bytes") if roof else None
        if comp and "read" in comp:
            # Caches flushed before the launch (ncu's default): every byte
            # read comes from DRAM at least once.
            rd = m["dram__bytes_read.sum"]
            low = "" if comp["label"] == "exact" else "at least "
            # DRAM reads whole 32-byte sectors.
            dram = 32 * comp["read_sectors"]
            verdict("DRAM read at least", f"{low}{dram:.4g} B", f"{rd:.4g} B", dram <= rd)
        # The DRAM traffic gpulint estimates (dram_bytes) against
        # dram__bytes read and written: summed up against the >= 90% within
        # 25% of issue 20, not judged figure by figure.
        est = roof.get("dram_bytes") if roof else None
        if isinstance(est, dict) and isinstance(est.get("bytes"), int) and \
                "dram__bytes_write.sum" in m:
            md = m["dram__bytes_read.sum"] + m["dram__bytes_write.sum"]
            drams.append((p["name"], k, est["bytes"], md, est.get("label")))
            rows.append((p["name"], k, "DRAM bytes", f"{est['bytes']:.4g} B ({est.get('label')})",
                         f"{md:.4g} B",
                         "within 25%" if abs(est["bytes"] - md) <= 0.25 * md else "outside 25%"))
        floor_ = roof.get("min_time_s") if roof else None
        if floor_ is not None:
            verdict("at least time", f"{floor_:.3g} s", f"{took:.3g} s", floor_ <= took)
        # The warp instructions the time model's issue term counts
        # (analysis/timing/icount) against smsp__inst_executed: reported, summed
        # up below, not judged figure by figure.
        issue = roof.get("issue") if roof else None
        if issue and "warp_instructions" in issue and "smsp__inst_executed.sum" in m:
            pi, mi = issue["warp_instructions"], m["smsp__inst_executed.sum"]
            insts.append((p["name"], k, pi, mi, issue["level"]))
            rows.append((p["name"], k, f"warp instructions ({issue['level']})",
                         f"{pi:.4g} ({100 * issue['guessed_share']:.0f}% guessed)", f"{mi:.4g}",
                         "within 10%" if abs(pi - mi) <= 0.1 * mi else "outside 10%"))
        # The time model's estimate (issue 20): reported with its error,
        # summed up in benchmarks/TIME.md, not judged figure by figure.
        pt = roof.get("predicted_time_s") if roof else None
        if pt is not None:
            times.append((p["name"], k, pt, took, roof.get("time_limiter")))
            rows.append((p["name"], k, "predicted time",
                         f"{pt:.3g} s ({roof.get('time_limiter')})", f"{took:.3g} s",
                         "within 25%" if abs(pt - took) <= 0.25 * took else "outside 25%"))


def ratchet(name, phrase, what, within):
    """The count within 25% may not fall below the one benchmarks/NAME
    records as "**N of M PHRASE**" (a model change that loses kernels
    fails)."""
    doc = os.path.join(SRC_ROOT, "benchmarks", name)
    if not os.path.exists(doc):
        return
    m = re.search(r"\*\*(\d+) of (\d+) " + phrase + r"\*\*", open(doc).read())
    if check(m is not None, f"benchmarks/{name} records the count within 25%"):
        check(within >= int(m.group(1)),
              f"{what} within 25% on {within} kernels, at least the "
              f"{m.group(1)} benchmarks/{name} records")


def dram_summary(heavy_left_out):
    """The DRAM bytes gpulint estimates against dram__bytes (read + write):
    how many within 25%, the median and mean error, the worst; the count may
    not fall below the one benchmarks/DRAM.md records; with --dram, its
    table."""
    if not drams or DEVICE != "h100":
        return
    errs = sorted((abs(pb - mb) / max(mb, 1), prog, k, pb, mb)
                  for prog, k, pb, mb, _ in drams)
    a = [e[0] for e in errs]
    within = sum(x <= 0.25 for x in a)
    med = a[len(a) // 2] if len(a) % 2 else (a[len(a) // 2 - 1] + a[len(a) // 2]) / 2
    print(f"DRAM bytes: {len(a)} kernels, {within} within 25% ({100 * within / len(a):.0f}%), "
          f"median error {100 * med:.0f}%, mean {100 * sum(a) / len(a):.0f}%")
    for e, prog, k, pb, mb in errs:
        if e > 0.25:
            print(f"  DRAM {prog} {k}: {pb:.4g} B against {mb:.4g} B "
                  f"({100 * (pb - mb) / max(mb, 1):+.0f}%)")
    if not heavy_left_out:
        ratchet("DRAM.md", r"truth-set kernels within 25%", "DRAM bytes", within)
    if DRAMS:
        with open(DRAMS, "w") as f:
            f.write(f"**{within} of {len(a)} truth-set kernels within 25%**; median error "
                    f"{100 * med:.0f}%, mean {100 * sum(a) / len(a):.0f}%.\n\n"
                    "| program | kernel | estimate | label | dram__bytes | error |\n"
                    "|---|---|---|---|---|---|\n")
            for prog, k, pb, mb, label in drams:
                f.write(f"| {prog} | {k} | {pb:.4g} B | {label} | {mb:.4g} B | "
                        f"{100 * (pb - mb) / max(mb, 1):+.0f}% |\n")


def time_summary(heavy_left_out):
    """The predicted times against the measured ones: how many within 25%,
    the median and mean absolute error, the worst; with --times, the table
    of benchmarks/TIME.md. The count within 25% may not fall below the one
    benchmarks/TIME.md records (a model change that loses kernels fails)."""
    if insts:
        e = sorted(abs(pi - mi) / mi for _, _, pi, mi, _ in insts)
        print(f"warp instructions: {len(e)} kernels, {sum(x <= 0.1 for x in e)} within 10%, "
              f"{sum(x <= 0.25 for x in e)} within 25%, median error {100 * e[len(e) // 2]:.0f}%")
    if not times:
        return
    errs = sorted((abs(pt - took) / took, prog, k, pt, took, lim)
                  for prog, k, pt, took, lim in times)
    a = [e[0] for e in errs]
    within = sum(x <= 0.25 for x in a)
    med = a[len(a) // 2] if len(a) % 2 else (a[len(a) // 2 - 1] + a[len(a) // 2]) / 2
    line = (f"{len(a)} kernels, {within} within 25% ({100 * within / len(a):.0f}%), "
            f"median error {100 * med:.0f}%, mean {100 * sum(a) / len(a):.1f}%, "
            f"worst {100 * a[-1]:.0f}% ({errs[-1][1]} {errs[-1][2]})")
    print(f"predicted time: {line}")
    if not heavy_left_out:
        ratchet("TIME.md" if DEVICE == "h100" else f"TIME-{DEVICE.upper()}.md",
                r"kernels within 25%", "predicted time", within)
    if TIMES:
        with open(TIMES, "w") as f:
            f.write(f"**{within} of {len(a)} kernels within 25%**; median error "
                    f"{100 * med:.0f}%, mean {100 * sum(a) / len(a):.1f}%.\n\n"
                    "| program | kernel | predicted | limiter | measured | error |\n"
                    "|---|---|---|---|---|---|\n")
            for prog, k, pt, took, lim in times:
                f.write(f"| {prog} | {k} | {pt:.3g} s | {lim} | {took:.3g} s | "
                        f"{100 * (pt - took) / took:+.0f}% |\n")


def main():
    skip_without_nvcc()
    if DEVICE != "h100" and os.environ.get("GPULINT_SWEEP") == "quick":
        print(f"skipped under GPULINT_SWEEP=quick: the {DEVICE} pass (the plain build runs it)")
        return
    progs = json.load(open(os.path.join(TRUTH, "programs.json")))
    misses = {f"{x['program']}:{x['kernel']}:{x['check']}": x["cause"]
              for x in json.load(open(os.path.join(TRUTH, "misses.json")))}
    for p in progs:
        if p.get("pending"):
            print(f"pending {p['name']}: {len(p['kernels'])} kernels {p['pending']}")
    progs = [p for p in progs if not p.get("pending")]
    # The sanitizer stage (GPULINT_SWEEP=quick) leaves out the programs whose
    # analysis takes minutes there (OneFlow's 463 instantiations); the
    # plain build judges every program.
    if os.environ.get("GPULINT_SWEEP") == "quick":
        for p in progs:
            if p.get("heavy"):
                print(f"skipped under GPULINT_SWEEP=quick: {p['name']} ({p['heavy']})")
        progs = [p for p in progs if not p.get("heavy")]
    repos = {p["repo"] for p in progs}
    kernels = sum(len(p["kernels"]) for p in progs)
    check(len(repos) >= 4 and kernels >= 30, f"{kernels} kernels from {len(repos)} repositories")
    os.makedirs(SASS_DIR, exist_ok=True)
    for name in os.listdir(os.path.join(TRUTH, "sass")):
        with gzip.open(os.path.join(TRUTH, "sass", name), "rb") as f, \
                open(os.path.join(SASS_DIR, name[:-3]), "wb") as out:
            out.write(f.read())
    # One gpulint run per file, flags and set of --define values; programs
    # built from the same file (OneFlow's float and half runs) share it.
    jobs, sharing = [], {}
    for p in progs:
        for k in p["kernels"]:
            defines = kernel_spec(p, k)[2]
            key = (p["dir"], p["file"], tuple(p["gpulint"]), tuple(defines))
            if key not in sharing:
                sharing[key] = []
                jobs.append((p, defines))
            if p not in sharing[key]:
                sharing[key].append(p)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for p, defines, r in ex.map(report, jobs):
            if not check(r.returncode == 0, f"{p['name']}: gpulint exits 0", r.stderr[-2000:]):
                continue
            d = json.loads(r.stdout)
            for q in sharing[(p["dir"], p["file"], tuple(p["gpulint"]), tuple(defines))]:
                judge(q, defines, d, misses)
    shutil.rmtree(SASS_DIR, ignore_errors=True)
    counts = {}
    judged = [r for r in rows if r[2] not in ("predicted time", "DRAM bytes")]
    heavy_left_out = os.environ.get("GPULINT_SWEEP") == "quick"
    for r in judged:
        counts[r[5]] = counts.get(r[5], 0) + 1
    print(f"truth set: {kernels} kernels, {len(judged)} figures: " +
          ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    time_summary(heavy_left_out)
    dram_summary(heavy_left_out)
    if TABLE:
        with open(TABLE, "w") as f:
            f.write("| program | kernel | figure | gpulint | H100 | verdict |\n|---|---|---|---|---|---|\n")
            for r in judged:
                f.write("| " + " | ".join(r) + " |\n")
    check.finish()


main()
