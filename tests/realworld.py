#!/usr/bin/env python3
"""The real-world-shaped inputs of tests/data/realworld, as their README says.

usage: realworld.py GPULINT SRC_ROOT

Reads the outcome table of tests/data/realworld/README.md and runs each row
(`gpulint FILE --arch sm_90 --format json [extra]`, in parallel): the exit
status, kernels and launches must be the row's; stderr holds at most one
"gpulint: error:" line and nothing of a crash, a sanitizer or a skipped
source analysis. Then all files in one run with -j: the host-only file is a
note, dynamic_parallelism.cu (no -rdc) the one failure, every other file's
kernels reported. Ends with "N passed, N failed"; exit 77 ("skipped: no
nvcc") without nvcc.
"""

import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402
import tempfile

GPULINT, SRC_ROOT = sys.argv[1], sys.argv[2]
DATA = os.path.join(SRC_ROOT, "tests", "data")
ROW = re.compile(r"^\| (\S+\.cu) \|[^|]*\|([^|]*)\| (\d+) \| (\d+) \| (\d+) \|$")
BAD = ("AddressSanitizer", "LeakSanitizer", "runtime error:", "Segmentation fault",
       "worker died", "source analysis skipped", "internal error", "Aborted")
check = Checks()






def rows():
    out = []
    with open(os.path.join(DATA, "realworld", "README.md")) as fh:
        for line in fh:
            m = ROW.match(line.strip())
            if m:
                extra = m.group(2).strip().strip("`")
                out.append((m.group(1), shlex.split(extra), int(m.group(3)),
                            int(m.group(4)), int(m.group(5))))
    return out


def env():
    return dict(os.environ, NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
                GPULINT_MODELS=os.path.join(SRC_ROOT, "models"))


def run(args):
    try:
        p = subprocess.run([GPULINT, *args], cwd=DATA, env=env(), capture_output=True,
                           timeout=300, text=True, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "hang: no answer in 300 s"


def clean_stderr(err):
    bad = [b for b in BAD if b in err]
    errors = [l for l in err.splitlines() if l.startswith("gpulint: error:")]
    return not bad and len(errors) <= 1, bad, errors


def one(row):
    name, extra, want_rc, want_k, want_l = row
    rc, out, err = run([f"realworld/{name}", "--arch", "sm_90", "--format", "json", *extra])
    k = l = 0
    if out.strip():
        try:
            doc = json.loads(out)
            k = len(doc["kernels"])
            l = sum(len(x.get("launches") or []) for x in doc["kernels"])
        except (ValueError, KeyError):
            k = l = -1
    ok_err, bad, errors = clean_stderr(err)
    what = f"{name} {' '.join(extra)}".rstrip()
    got = f"exit {rc}, {k} kernels, {l} launches"
    return (rc == want_rc and k == want_k and l == want_l and ok_err,
            f"{what}: {got}", "" if rc == want_rc and k == want_k and l == want_l and ok_err
            else f"expected exit {want_rc}, {want_k} kernels, {want_l} launches; "
                 f"stderr problems {bad} errors {errors}\n{err[-2000:]}")


def whole(table):
    files = sorted({r[0] for r in table})
    rc, out, err = run([*(f"realworld/{f}" for f in files), "--arch", "sm_90", "--format",
                        "json", "-j", str(min(4, os.cpu_count() or 1))])
    ok_err, bad, errors = clean_stderr(err)
    check(rc == 2 and ok_err, f"all {len(files)} files in one run: exit 2, one error line",
          f"exit {rc}, {bad}, {errors}\n{err[-2000:]}")
    check("realworld/host_only.cu: no __global__ kernels (host code only)" in err,
          "host_only.cu among others is a note", err[-1000:])
    check(f"1 of {len(files)} files failed" in err, f"the run says 1 of {len(files)} failed",
          err[-1000:])
    per_file = {}
    try:
        for k in json.loads(out)["kernels"]:
            per_file[k["file"]] = per_file.get(k["file"], 0) + 1
    except (ValueError, KeyError):
        pass
    want = {f"realworld/{r[0]}": r[3] for r in table if r[2] == 0 and not r[1]}
    check(all(per_file.get(f) == n for f, n in want.items()),
          f"kernels of the {len(want)} files that build without extra flags all reported",
          f"{per_file} vs {want}")


def main():
    skip_without_nvcc()
    table = rows()
    check(len(table) >= 20, f"outcome table read: {len(table)} rows")
    jobs = max(1, min(4, os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for ok, what, detail in ex.map(one, table):
            check(ok, what, detail)
    whole(table)
    check.finish()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TMPDIR"] = tmp
        main()
