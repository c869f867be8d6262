#!/usr/bin/env python3
"""localprobe_check: gpulint's local-memory DRAM writes (dram_bytes.local,
analysis/memory/localmem) against what an H200 wrote for the probe
scripts/localprobe/localprobe.cu (tests/data/localprobe/h200/localprobe.csv,
Nsight Compute's dram__bytes_write.sum; the probe's own global store, one
float a thread, is added to the prediction).

usage: localprobe_check.py GPULINT SRC_ROOT

Where the resident frames are several times the L2 (the rule's regime:
every stored line written back once) the total must be within 10% of the
measurement. Near the L2's size and below it the rule is a threshold and
the hardware is not: there the prediction is printed beside the
measurement, with no pass or fail, so the record says how far off it is.
Ends with "N passed, N failed"; exit 77 without nvcc.
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402

GPULINT, ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
L2 = 62914560  # models/gpu/h200.ini


def measured():
    path = os.path.join(ROOT, "tests", "data", "localprobe", "h200", "localprobe.csv")
    with open(path) as f:
        rows = list(csv.reader(line for line in f if line.startswith('"')))
    head = rows[0]
    ii, mi, vi = (head.index(c) for c in ("ID", "Metric Name", "Metric Value"))
    out = {}
    for r in rows[1:]:
        out.setdefault(int(r[ii]), {})[r[mi]] = float(r[vi].replace(",", ""))
    return [out[k] for k in sorted(out)]


def main():
    skip_without_nvcc()
    c = Checks()
    env = dict(os.environ, GPULINT_NO_DEVICE="1", NO_COLOR="1", LC_ALL="C",
               GPULINT_MODELS=os.path.join(ROOT, "models"), GPULINT_CACHE_DIR=tempfile.mkdtemp())
    r = subprocess.run([GPULINT, os.path.join(ROOT, "scripts", "localprobe", "localprobe.cu"),
                        "--gpu", "h200", "--format", "json"], capture_output=True, text=True,
                       env=env)
    if not c(r.returncode == 0, "gpulint runs on the probe", r.stderr):
        c.finish()
    entries = sorted(json.loads(r.stdout)["roofline"], key=lambda e: e["line"])
    runs = measured()
    c(len(entries) == len(runs), f"{len(entries)} launches, {len(runs)} measured")
    for e, m in zip(entries, runs):
        local = e["dram_bytes"].get("local") or {}
        predicted = local.get("write", 0) + e["dram_compulsory_bytes"]["write"]
        wrote = m["dram__bytes_write.sum"]
        err = (predicted - wrote) / wrote
        what = (f"{e['kernel']} line {e['line']}: {predicted / 1e6:.1f} MB written predicted, "
                f"{wrote / 1e6:.1f} MB measured ({err:+.0%}; working set "
                f"{local.get('working_set', 0) / 1e6:.1f} MB)")
        if local.get("working_set", 0) >= 3 * L2:
            c(abs(err) <= 0.10, what)
        else:
            print(f"note {what}")
    c.finish()


if __name__ == "__main__":
    main()
