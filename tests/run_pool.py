#!/usr/bin/env python3
"""Many files at once: the worker pool's promises.

usage: run_pool.py GPULINT SRC_ROOT

1. What a run prints (stdout and stderr, text, JSON and SARIF) is
   byte-identical with -j 1 and -j 4 over the examples: the order is the
   files' order, never the scheduler's.
2. SIGINT and SIGTERM end a run cleanly while its nvcc jobs run: gpulint
   dies of that signal, every nvcc it started is gone, and nothing is left
   in $TMPDIR.
Ends with "N passed, N failed" (exit 77, "skipped: no nvcc", without nvcc
for part 1; part 2 uses a fake nvcc and always runs).
"""

import os
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, find_nvcc  # noqa: E402
import tempfile
import time

GPULINT, SRC_ROOT = sys.argv[1], sys.argv[2]
EXAMPLES = ["vector_add.cu", "transpose.cu", "reduction.cu", "divergence.cu",
            "coalescing.cu", "launch_api.cu"]
check = Checks()




def env_for(tmp):
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
               GPULINT_MODELS=os.path.join(SRC_ROOT, "models"), TMPDIR=tmp)
    return env




def same_output_any_jobs(tmp):
    ex = os.path.join(SRC_ROOT, "examples")
    for fmt in ("text", "json", "sarif"):
        outs = []
        for jobs in ("1", "4"):
            p = subprocess.run([GPULINT, *EXAMPLES, "--gpu", "h100-sxm", "--format", fmt,
                                "-j", jobs], cwd=ex, env=env_for(tmp), capture_output=True,
                               timeout=600)
            outs.append((p.returncode, p.stdout, p.stderr))
        check(outs[0] == outs[1] and outs[0][0] == 0 and outs[0][1],
              f"{fmt}: -j 1 and -j 4 print the same bytes ({len(outs[0][1])} bytes)")


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie awaiting its reaper is gone for our purpose.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def stops_cleanly(sig, tmp):
    run_tmp = tempfile.mkdtemp(dir=tmp, prefix="stop-")
    pids = os.path.join(tmp, f"pids-{sig}")
    data = os.path.join(SRC_ROOT, "tests", "data")
    env = env_for(run_tmp)
    env["GPULINT_FAKE_PIDS"] = pids
    files = ["cli/cu/scale.cu", "cli/cu/no-kernels.cu", "cli/cu/compile-error.cu"]
    p = subprocess.Popen([GPULINT, *files, "--arch", "sm_80", "-j", "3", "--no-source",
                          "--nvcc", "cli/fake/nvcc-hangs"], cwd=data, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with open(pids) as f:
                if len(f.read().split()) == 3:
                    break
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        check(False, f"{signal.Signals(sig).name}: gpulint ends")
        return
    check(p.returncode == -sig, f"{signal.Signals(sig).name}: gpulint dies of it "
          f"(status {p.returncode})")
    with open(pids) as f:
        started = [int(x) for x in f.read().split()]
    time.sleep(0.2)
    left = [x for x in started if alive(x)]
    check(len(started) == 3 and not left,
          f"{signal.Signals(sig).name}: the {len(started)} nvcc jobs are gone (left: {left})")
    check(os.listdir(run_tmp) == [],
          f"{signal.Signals(sig).name}: nothing left in $TMPDIR ({os.listdir(run_tmp)})")
    check(b"error" not in err, f"{signal.Signals(sig).name}: no error line ({err[-200:]!r})")


def main():
    tmp = tempfile.mkdtemp(prefix="gpulint-pool-test-")
    try:
        stops_cleanly(signal.SIGINT, tmp)
        stops_cleanly(signal.SIGTERM, tmp)
        if find_nvcc():
            same_output_any_jobs(tmp)
        else:
            print("skipped: no nvcc (the -j comparison)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
