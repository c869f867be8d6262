"""Shared by the Python test scripts of tests/: counted checks that end with
the "N passed, N failed" line the CI summary reads, and finding nvcc."""

import os
import shutil
import sys


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {what}")
        else:
            self.failed += 1
            print(f"FAIL {what}")
            if detail:
                print("     " + str(detail)[-2000:].rstrip().replace("\n", "\n     "))
        return ok

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


def find_nvcc():
    """nvcc as gpulint finds it: $CUDA_HOME/bin, PATH, /usr/local/cuda/bin."""
    home = os.environ.get("CUDA_HOME")
    for cand in ([os.path.join(home, "bin", "nvcc")] if home else []) + \
            [shutil.which("nvcc") or "", "/usr/local/cuda/bin/nvcc"]:
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def skip_without_nvcc():
    if not find_nvcc():
        print("skipped: no nvcc")
        sys.exit(77)
