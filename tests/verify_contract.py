#!/usr/bin/env python3
"""gpulint verify without a GPU, against the runs recorded on one.

usage: verify_contract.py GPULINT SRC_ROOT

tests/data/verify/<device>/verify.json are `gpulint verify --json` outputs
recorded on an H100 and an H200 (scripts/gpu.sh). This test, in CI:
  1. checks each against the JSON contract documented in docs/json.md;
  2. runs `gpulint verify --dry-run --format json` (this build's predictions,
     no GPU) and re-judges every recorded measurement against today's
     prediction with the row's own tolerance: a change to a model or an
     analysis that would no longer agree with the hardware fails here
     (predicted times with the record's card.ini where it has one: the
     constants timeprobe measured on the same card);
  3. checks tests/data/verify/predictions-<model>.json (what a GPU machine
     without libclang uses) give the rows this gpulint predicts, through
     `verify --dry-run --predictions FILE`;
  4. renders each record again (--from): the same JSON, text whose summary
     matches, a chart and a model file that `gpulint roofline --gpu FILE`
     reads with its measured ceilings;
  5. the `verify --calibrate` record (tests/data/verify/h200-calibrate/):
     every [timing] constant derived again from the probe runs it records
     (the rule written out here, not read from gpulint), the saved model
     holding those values, and the recorded times judged with the bundled
     model and with the card's calibrated one: neither count may fall
     below what benchmarks/VERIFY.md records.
With GPULINT_SWEEP=quick (the sanitizer stage) only the h100 plans are
made; the h200, calibrated and cluster plans are the plain build's.
Ends with "N passed, N failed"; exit 77 ("skipped: ...") without nvcc or
libclang, which the dry run needs.
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

GPULINT, ROOT = sys.argv[1], sys.argv[2]
DATA = os.path.join(ROOT, "tests", "data", "verify")
DEVICES = ["h100", "h200"]
VERDICTS = {"agrees", "differs", "not_comparable"}
CHECKS = {"occupancy", "bank", "coalescing", "divergence", "roofline", "time"}
CARDS = {"h100": "H100", "h200": "H200"}
PREDICTION_MODELS = ["h100-sxm", "h200"]

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}{(': ' + detail) if detail else ''}")
    return ok


def run(args, **kw):
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1",
               GPULINT_MODELS=os.path.join(ROOT, "models"))
    return subprocess.run([GPULINT] + args, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900, **kw)


def contract(name, d, least=90):
    """docs/json.md's contract for `gpulint verify --format json`; a whole
    run has more than `least` rows."""
    problems = []
    for key in ("device", "counters", "ceilings", "results"):
        if key not in d:
            problems.append(f"no '{key}'")
    dev = d.get("device", {})
    for key in ("name", "cc", "sms", "sm_clock_mhz", "memory_clock_mhz", "driver", "runtime"):
        if key not in dev:
            problems.append(f"device has no '{key}'")
    if d.get("counters") not in ("used", "off", "refused", "unavailable"):
        problems.append(f"counters = {d.get('counters')!r}")
    for cname, c in d.get("ceilings", {}).items():
        if "measured" not in c or "spec" not in c:
            problems.append(f"ceiling {cname} lacks measured/spec")
    for i, r in enumerate(d.get("results", [])):
        for key in ("check", "kernel", "launch", "predicted", "measured", "method", "tolerance",
                    "verdict"):
            if key not in r:
                problems.append(f"results[{i}] has no '{key}'")
        if r.get("verdict") not in VERDICTS or r.get("check") not in CHECKS:
            problems.append(f"results[{i}]: check {r.get('check')!r}, verdict {r.get('verdict')!r}")
        if r.get("verdict") == "not_comparable" and not r.get("reason"):
            problems.append(f"results[{i}] ({r.get('kernel')}) is not comparable without a reason")
    check(f"{name}: the JSON contract", not problems, "; ".join(problems[:5]))
    # A predicted time is an estimate: its rows may differ (time_rejudge
    # counts them); every other row is a claim.
    rows = [r for r in d.get("results", []) if r.get("check") != "time"]
    differ = [r["kernel"] for r in rows if r["verdict"] == "differs"]
    check(f"{name}: every row agrees or is not comparable with a reason ({len(rows)} rows)",
          not differ and len(rows) > least, f"differ: {differ}")
    check(f"{name}: recorded with counters and a real device",
          d.get("counters") == "used" and dev.get("driver") and not d.get("dry_run"))


def key(r):
    return (r["check"], r["kernel"], r["launch"])


def rejudge(name, recorded, today, least=90):
    """Today's prediction against the recorded measurement, row by row."""
    now = {key(r): r for r in today["results"]}
    problems = []
    compared = 0
    for r in recorded["results"]:
        if r["check"] == "time":
            continue  # judged by time_rejudge
        t = now.get(key(r))
        if t is None:
            problems.append(f"{key(r)} is no longer planned")
            continue
        p, m = t["predicted"], r["measured"]
        counter = r.get("counter")
        if p is None or r["verdict"] != "agrees":
            continue
        compared += 1
        c = r["check"]
        if c == "occupancy":
            ok = p == m
        elif c in ("bank", "coalescing"):
            # the recorded row agreed by its measurement or by its counter
            tol = 0.05 if c == "bank" else 0.10
            ok = (m is not None and abs(m - p) <= max(0.5, tol * p)) or \
                (counter is not None and abs(counter - p) <= max(0.1, 0.02 * p))
        elif c == "divergence":
            tol = 0.005 if r.get("kind") == "lanes" else 0.10 * p
            ok = m is not None and abs(m - p) <= tol
        else:  # roofline: today's floor must stay at or below the measured time
            floor = t.get("floor_s")
            ok = floor is not None and m is not None and m * 1e-3 >= floor * 0.98
        if not ok:
            problems.append(f"{c} {r['kernel']} {r['launch']}: predicted {p} today, measured "
                            f"{m} (counter {counter})")
    check(f"{name}: today's predictions agree with the recorded measurements ({compared} rows)",
          not problems and compared > least, "; ".join(problems[:5]))


def time_rejudge(name, recorded, today):
    """Today's predicted times against the recorded times of the roofline
    kernels (the time rows where the record has them, else the roofline
    rows: the same CUDA-event medians): how many within 25%, which may not
    fall below the count benchmarks/VERIFY.md records for this card."""
    measured = {}
    for r in recorded["results"]:
        if r["check"] in ("roofline", "time") and r.get("measured"):
            measured.setdefault((r["kernel"], r["launch"]), r["measured"])
    errors = []
    for t in today["results"]:
        if t["check"] != "time":
            continue
        m = measured.get((t["kernel"], t["launch"]))
        if t.get("predicted") and m:
            errors.append((abs(t["predicted"] / m - 1), t["kernel"], t["predicted"] / m - 1))
    errors.sort()
    n = len(errors)
    within = sum(e <= 0.25 for e, _, _ in errors)
    if not check(f"{name}: a predicted time for every roofline kernel", n >= 20, f"{n} rows"):
        return
    median = errors[n // 2][0] if n % 2 else (errors[n // 2 - 1][0] + errors[n // 2][0]) / 2
    mean = sum(e for e, _, _ in errors) / n
    misses = ", ".join(f"{k} {100 * s:+.0f}%" for e, k, s in errors if e > 0.25)
    print(f"time {name}: {within} of {n} within 25%, median error {100 * median:.0f}%, "
          f"mean {100 * mean:.0f}%; outside: {misses or 'none'}")
    with open(os.path.join(ROOT, "benchmarks", "VERIFY.md")) as f:
        m = re.search(rf"\*\*(\d+) of (\d+) reference kernels within 25% on the {CARDS[name]}\*\*",
                      f.read())
    if check(f"{name}: benchmarks/VERIFY.md records the count within 25%", m is not None):
        check(f"{name}: predicted time within 25% on {within} kernels, at least the "
              f"{m.group(1)} benchmarks/VERIFY.md records", within >= int(m.group(1)))


def record_count(name, tag, what, counter, errors, complete):
    """Prints how many of (|error|, kernel, error) lie within 25% of the
    counter, and checks that against the count benchmarks/VERIFY.md
    records as "**N of M reference kernels' WHAT within 25% on the CARD**"."""
    if not complete:
        return
    errors.sort()
    n, within = len(errors), sum(e <= 0.25 for e, _, _ in errors)
    misses = ", ".join(f"{k} {100 * s:+.0f}%" for e, k, s in errors if e > 0.25)
    print(f"{tag} {name}: {within} of {n} within 25% of {counter}; outside: {misses or 'none'}")
    with open(os.path.join(ROOT, "benchmarks", "VERIFY.md")) as f:
        m = re.search(rf"\*\*(\d+) of (\d+) reference kernels' {what} within 25% on the "
                      rf"{CARDS[name]}\*\*", f.read())
    if check(f"{name}: benchmarks/VERIFY.md records the {what} count within 25%", m is not None):
        check(f"{name}: {what} within 25% on {within} kernels, at least the "
              f"{m.group(1)} benchmarks/VERIFY.md records", within >= int(m.group(1)))


def dram_rejudge(name, recorded, today):
    """Today's DRAM estimates against the dram__bytes (read + write) that
    Nsight Compute recorded for the roofline kernels, where the record has
    counters: how many within 25%, which may not fall below the count
    benchmarks/VERIFY.md records for this card."""
    measured = {(r["kernel"], r["launch"]): r["counter_dram_bytes"]
                for r in recorded["results"]
                if r["check"] == "roofline" and r.get("counter_dram_bytes")}
    if not measured:
        print(f"dram {name}: the record has no DRAM counters")
        return
    errors = []
    for t in today["results"]:
        m = measured.get((t["kernel"], t["launch"]))
        if t["check"] == "roofline" and m and t.get("dram_estimate_bytes") is not None:
            errors.append((abs(t["dram_estimate_bytes"] / m - 1), t["kernel"],
                           t["dram_estimate_bytes"] / m - 1))
    record_count(name, "dram", "DRAM bytes", "dram__bytes", errors,
                 check(f"{name}: a DRAM estimate for every roofline kernel with counters",
                       len(errors) == len(measured), f"{len(errors)} of {len(measured)}"))


def insts_rejudge(name, today):
    """Today's warp instructions (the count each time row's issue term is
    built from) against the smsp__inst_executed Nsight Compute recorded
    for the same launches (DATA/NAME-insts: a verify run with the
    counter): how many within 25%, which may not fall below the count
    benchmarks/VERIFY.md records for this card."""
    path = os.path.join(DATA, name + "-insts", "verify.json")
    if not os.path.exists(path):
        return
    with open(path) as f:
        recorded = json.load(f)
    measured = {(r["kernel"], r["launch"]): r["counter_warp_instructions"]
                for r in recorded["results"]
                if r["check"] == "time" and r.get("counter_warp_instructions")}
    errors = []
    for t in today["results"]:
        m = measured.get((t["kernel"], t["launch"]))
        if t["check"] == "time" and m and t.get("predicted_warp_instructions") is not None:
            e = t["predicted_warp_instructions"] / m - 1
            errors.append((abs(e), t["kernel"], e))
    record_count(name, "insts", "warp instructions", "smsp__inst_executed", errors,
                 check(f"{name}: a warp instruction count for every time row with the counter",
                       len(errors) == len(measured) and len(errors) > 0,
                       f"{len(errors)} of {len(measured)}"))


def other_launch():
    """A time row only for the launch that is timed: with predictions made
    before the source changed, verify times the launch verify.ini gives
    (1024 x 128 here) and gpulint's time, which is for the source's own
    launch, is no prediction of it."""
    with tempfile.TemporaryDirectory() as tmp:
        kdir = os.path.join(tmp, "kernels")
        shutil.copytree(os.path.join(ROOT, "kernels"), kdir)
        ini = os.path.join(kdir, "verify.ini")
        with open(ini) as f:
            text = f.read()
        line = "kernel = rf_vector_add args=a,b,c compulsory=12*VEC_N check=add(a,b,c)"
        with open(ini, "w") as f:
            f.write(text.replace(line, line + " grid=1024 threads=128"))
        with open(os.path.join(kdir, "roofline.cu"), "a") as f:
            f.write("// edited after the predictions were made\n")
        r = run(["verify", "--dry-run", "--kernels", kdir, "--only", "rf_vector_add",
                 "--check", "time", "--format", "json", "--predictions",
                 os.path.join(DATA, "predictions-h100-sxm.json")])
        rows = json.loads(r.stdout)["results"] if r.returncode == 0 else []
        check("a launch other than the source's gets no predicted time, and says why",
              len(rows) == 1 and rows[0]["launch"] == "<<<1024, 128>>>" and
              rows[0]["predicted"] is None and
              "the source's launch is not the one timed" in rows[0]["reason"] and
              "has changed since the predictions were made" in r.stderr,
              (r.stderr + json.dumps(rows))[-400:])


def clusters_record(quick):
    """`gpulint verify --check occupancy` on a second H200 (GPU-dd4d09fc),
    with the cluster probes: its contract, and every row, clusters
    included, predicted the same today."""
    with open(os.path.join(DATA, "h200-clusters", "verify.json")) as f:
        rec = json.load(f)
    contract("h200-clusters", rec, least=30)
    clusters = [r for r in rec["results"] if r["unit"] == "clusters"]
    check(f"h200-clusters: {len(clusters)} cluster rows recorded, all agreeing",
          len(clusters) >= 8 and all(r["verdict"] == "agrees" for r in clusters))
    if quick:
        print("skipped under GPULINT_SWEEP=quick: the h200 plan (the plain build makes it)")
        return
    r = run(["verify", "--dry-run", "--gpu", "h200", "--check", "occupancy", "--format", "json"])
    if check("verify --dry-run --gpu h200 --check occupancy", r.returncode == 0,
             r.stderr.strip()[-300:]):
        rejudge("h200-clusters", rec, json.loads(r.stdout), least=len(rec["results"]) - 1)


def main():
    if not (shutil.which("nvcc") or os.access("/usr/local/cuda/bin/nvcc", os.X_OK)):
        print("skipped: no nvcc (the dry run builds the reference kernels)")
        return 77
    records = {}
    for dev in DEVICES:
        path = os.path.join(DATA, dev, "verify.json")
        with open(path) as f:
            records[dev] = json.load(f)
        contract(dev, records[dev])

    # The sanitizer stage (GPULINT_SWEEP=quick) plans for the first device
    # only: each plan is every reference kernel's source analysis again,
    # three times slower there; the plain build plans for both.
    quick = os.environ.get("GPULINT_SWEEP") == "quick"
    for dev in DEVICES[:1] if quick else DEVICES:
        # Planned for the product model the record's device is (its clocks
        # set the roofline floors).
        model = records[dev]["device"]["model"]
        r = run(["verify", "--dry-run", "--gpu", model, "--format", "json"])
        if r.returncode != 0:
            check(f"verify --dry-run --gpu {model}", False, r.stderr.strip()[-300:])
            continue
        today = json.loads(r.stdout)
        if today["predictions"].get("note"):
            print(f"skipped: {today['predictions']['note'][:120]}")
            return 77
        missing = [k for k in ("device", "ceilings", "results") if k not in today]
        check(f"dry run for {model}: the contract's fields, every row unmeasured",
              not missing and all(x["measured"] is None for x in today["results"]), str(missing))
        rejudge(dev, records[dev], today)
        # A record made beside a timeprobe run on the same card
        # (scripts/card-verify.sh) is timed with that card's constants:
        # what a probe gives can differ between two cards of one name
        # (tests/data/timeprobe/README.md).
        card = os.path.join(DATA, dev, "card.ini")
        timed = today
        if os.path.exists(card):
            r = run(["verify", "--dry-run", "--gpu", card, "--format", "json"])
            if not check(f"verify --dry-run --gpu {dev}/card.ini", r.returncode == 0,
                         r.stderr.strip()[-300:]):
                continue
            timed = json.loads(r.stdout)
        time_rejudge(dev, records[dev], timed)
        dram_rejudge(dev, records[dev], today)
        insts_rejudge(dev, today)
        # The predictions a GPU machine without libclang reads
        # (scripts/verify-predictions.sh writes them): the same rows as
        # this gpulint's own, every field (the predicted times' components
        # too), so a stale file fails here.
        if model in PREDICTION_MODELS:
            pfile = os.path.join(DATA, f"predictions-{model}.json")
            r = run(["verify", "--dry-run", "--gpu", model, "--predictions", pfile,
                     "--format", "json"])
            ok = r.returncode == 0
            if ok:
                theirs = json.loads(r.stdout)
                stale = [f"{a['check']} {a['kernel']}" for a, b in
                         zip(today["results"], theirs["results"]) if a != b]
                ok = not stale and len(theirs["results"]) == len(today["results"])
            check(f"predictions-{model}.json gives the rows this gpulint predicts", ok,
                  ("run scripts/verify-predictions.sh and commit the files; differ: " +
                   ", ".join(stale[:5])) if r.returncode == 0 else r.stderr.strip()[-300:])

    other_launch()
    calibrate_record(quick)
    clusters_record(quick)

    with tempfile.TemporaryDirectory() as tmp:
        for dev in DEVICES:
            src = os.path.join(DATA, dev, "verify.json")
            r = run(["verify", "--from", src, "--format", "json"])
            ok = r.returncode == 0 and json.loads(r.stdout)["results"] == records[dev]["results"]
            check(f"{dev}: --from gives back the same rows", ok, r.stderr.strip())
            r = run(["verify", "--from", src])
            s = records[dev]["summary"]
            want = (f"verify: {s['rows']} rows: {s['agrees']} agree, {s['differs']} differ, "
                    f"{s['not_comparable']} not comparable")
            check(f"{dev}: --from text ends with the recorded summary",
                  r.returncode == 0 and want in r.stdout.splitlines()[-1], r.stdout[-200:])
            png = os.path.join(tmp, f"{dev}.png")
            model = os.path.join(tmp, f"{dev}.ini")
            r = run(["verify", "--from", src, "--plot", png, "--save-model", model])
            if "without cairo" in r.stderr:
                print(f"note: {dev}: no cairo, chart not drawn")
                r = run(["verify", "--from", src, "--save-model", model])
            else:
                with open(png, "rb") as f:
                    check(f"{dev}: --plot writes a PNG", f.read(8) == b"\x89PNG\r\n\x1a\n")
            r2 = run(["roofline", "--gpu", model, "--format", "json", "--ai", "1"])
            ok = r.returncode == 0 and r2.returncode == 0
            if ok:
                bw = json.loads(r2.stdout)["peak_bandwidth"]
                ok = math.isclose(bw, records[dev]["ceilings"]["dram"]["measured"], rel_tol=1e-5)
            check(f"{dev}: --save-model gives a model whose bandwidth is the measured one", ok,
                  (r.stderr + r2.stderr).strip())
    return finish()


# How each constant follows from its probe's runs (kernels/verify.ini's
# [calibration]; docs/timing.md): the one run's time, or the least-squares
# slope of time over work, in the model's unit.
CAL_RULES = {
    "launch_ns": "time_ns", "block_dispatch_ns": "slope_ns", "block_interval_ns": "slope_ns",
    "block_serial_ns": "slope_ns", "l1_latency_cycles": "slope_cycles",
    "l2_latency_ns": "slope_ns", "dram_latency_ns": "slope_ns",
    "dram_read_bandwidth": "bandwidth", "l2_read_bandwidth": "bandwidth",
    "l2_write_bandwidth": "bandwidth", "l2_partial_write_bandwidth": "bandwidth",
    "barrier_cycles": "slope_cycles", "barrier_warp_cycles": "cycles_a_warp",
}


def derive(runs, rule, mhz):
    w = [r["work"] for r in runs]
    t = [r["ms"] for r in runs]
    if rule == "time_ns":
        return sum(t) / len(t) * 1e6
    mw, mt = sum(w) / len(w), sum(t) / len(t)
    slope = (sum((a - mw) * (b - mt) for a, b in zip(w, t)) /
             sum((a - mw) ** 2 for a in w))
    if rule == "slope_ns":
        return slope * 1e6
    if rule == "slope_cycles":
        return slope * 1e6 * mhz / 1e3
    if rule == "bandwidth":
        return 1e3 / slope
    per_sm = runs[0]["grid"] // recorded_sms
    fits = runs[0].get("resident_blocks") or per_sm
    waves = -(-per_sm // fits)
    return slope * 1e6 * mhz / 1e3 / waves / (fits * runs[0]["threads"] // 32)


recorded_sms = 0


def calibrate_record(quick):
    global recorded_sms
    d = os.path.join(DATA, "h200-calibrate")
    with open(os.path.join(d, "verify.json")) as f:
        rec = json.load(f)
    contract("h200-calibrate", rec)
    cal = rec.get("calibration") or {}
    consts = cal.get("constants", [])
    recorded_sms = rec["device"]["sms"]
    mhz = rec["device"]["sm_clock_mhz"]
    check("calibrate: a row per constant verify can measure",
          sorted(c["name"] for c in consts) == sorted(CAL_RULES), str([c["name"] for c in consts]))
    bad = []
    for c in consts:
        if c.get("value") is None:
            bad.append(f"{c['name']}: not measured ({c.get('why')})")
            continue
        again = derive(c["runs"], CAL_RULES[c["name"]], mhz)
        if not math.isclose(again, c["value"], rel_tol=1e-9):
            bad.append(f"{c['name']}: {c['value']} recorded, {again} from its runs")
    check("calibrate: every constant measured, and equal to what its recorded runs give",
          not bad, "; ".join(bad))
    # --save-model writes them into [timing] (the record's measured.ini
    # was written so on the card; this gpulint writes it again from the
    # record), and the calibrated predictions are made with that file.
    tmp = tempfile.mkdtemp()
    model = os.path.join(tmp, "calibrated.ini")
    r = run(["verify", "--from", os.path.join(d, "verify.json"), "--save-model", model])
    if not check("calibrate: --from --save-model writes the card's model", r.returncode == 0,
                 r.stderr.strip()[-300:]):
        return
    for label, path in (("recorded", os.path.join(d, "measured.ini")), ("written now", model)):
        saved = {}
        with open(path) as f:
            section = ""
            for line in f:
                line = line.split(";")[0].strip()
                if line.startswith("["):
                    section = line
                elif "=" in line and section == "[timing]":
                    # A list key (l1_store_merge) holds several numbers.
                    k, v = (x.strip() for x in line.split("=", 1))
                    nums = [float(x) for x in v.split()]
                    saved[k] = nums[0] if len(nums) == 1 else nums
        off = [c["name"] for c in consts if c.get("value") and
               not math.isclose(saved.get(c["name"], -1), c["value"], rel_tol=1e-5)]
        check(f"calibrate: the {label} model holds the measured constants in [timing]",
              not off, str(off))
    if quick:
        print("skipped under GPULINT_SWEEP=quick: the bundled and calibrated h200 plans")
        shutil.rmtree(tmp)
        return
    measured = {(r["kernel"], r["launch"]): r["measured"] for r in rec["results"]
                if r["check"] == "time" and r.get("measured")}
    counts = {}
    for label, gpu in (("bundled", "h200"), ("calibrated", model)):
        r = run(["verify", "--dry-run", "--gpu", gpu, "--check", "time", "--format", "json"])
        if not check(f"calibrate: predictions with the {label} model", r.returncode == 0,
                     r.stderr.strip()[-300:]):
            return
        errors = sorted(abs(t["predicted"] / measured[(t["kernel"], t["launch"])] - 1)
                        for t in json.loads(r.stdout)["results"]
                        if t["check"] == "time" and t.get("predicted") and
                        (t["kernel"], t["launch"]) in measured)
        counts[label] = sum(e <= 0.25 for e in errors)
        print(f"calibrate {label}: {counts[label]} of {len(errors)} within 25%, median error "
              f"{100 * errors[len(errors) // 2]:.0f}%")
    with open(os.path.join(ROOT, "benchmarks", "VERIFY.md")) as f:
        m = re.search(r"\*\*(\d+) of 23 within 25% with the bundled constants, (\d+) with the "
                      r"card's own\*\*", f.read())
    if check("calibrate: benchmarks/VERIFY.md records both counts", m is not None):
        check(f"calibrate: bundled {counts['bundled']} and calibrated {counts['calibrated']} "
              f"within 25%, at least the {m.group(1)} and {m.group(2)} recorded",
              counts["bundled"] >= int(m.group(1)) and counts["calibrated"] >= int(m.group(2)))
    shutil.rmtree(tmp)


def finish():
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
