"""The nvcc flags of a HeCBench program's Makefile that change its device
code, as tests/hecbench_truth.py hands them to gpulint and
scripts/hecbench/sass-hecbench.py to nvcc."""

import os
import re

# Host warnings, -Xcompiler and the arch (the caller picks it) stay behind.
KEEP = re.compile(r"^(-std=|-D|-I|--expt-|--extended-lambda|-use_fast_math|--use_fast_math)")


def nvcc_args(cflags, where):
    """A -I of a directory not copied with the program (another
    benchmark's) is left out: nothing there is in the tree."""
    return [t for t in cflags.split() if KEEP.match(t) and
            not (t.startswith("-I") and not os.path.isdir(os.path.join(where, t[2:])))]
