#!/usr/bin/env python3
"""The cache of file results (run/unitcache): a re-run redoes only what changed.

usage: unit_cache.py GPULINT SRC_ROOT

nvcc is reached through a wrapper that counts its runs. An unchanged
re-run starts no nvcc and prints the same bytes; editing a header that one
file includes recompiles that file only, also one only its device code
includes; another --gpu or --define reuses
the compile (kept apart) and gives the report a fresh compile gives; an
edited --gpu file is a new report; other
nvcc arguments, --no-cache and a corrupt entry recompile; a cache directory
that cannot be made is one warning; two runs at once on one cache both
succeed; GPULINT_CACHE_MAX trims; a header only libclang reads is part of
the result's key; `gpulint cache --stats/--clear` report and empty it.
Ends with "N passed, N failed" (exit 77, "skipped: no nvcc", without nvcc).
"""

import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, find_nvcc  # noqa: E402
import tempfile

GPULINT, SRC_ROOT = sys.argv[1], sys.argv[2]
check = Checks()






def main():
    nvcc = find_nvcc()
    if not nvcc:
        print("skipped: no nvcc")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        work, cache = os.path.join(tmp, "work"), os.path.join(tmp, "cache")
        os.mkdir(work)
        counter = os.path.join(tmp, "nvcc-runs")
        wrapper = os.path.join(tmp, "nvcc")
        with open(wrapper, "w") as f:
            f.write(f'#!/bin/sh\necho run >> "{counter}"\nexec "{nvcc}" "$@"\n')
        os.chmod(wrapper, 0o755)

        def put(name, text):
            with open(os.path.join(work, name), "w") as f:
                f.write(text)

        put("cfg.h", "#define SCALE 2\n")
        # dev.h only where __CUDA_ARCH__ is defined: what the device compile
        # and libclang read.
        put("uses_cfg.cu", '#include "cfg.h"\n#ifdef __CUDA_ARCH__\n#include "dev.h"\n#else\n'
            '#define DEV 1\n#endif\n'
            '__global__ void k(float *x) { x[threadIdx.x] *= SCALE * DEV; }\n')
        put("dev.h", "#define DEV 1\n")
        for name in ("vector_add.cu", "transpose.cu"):
            shutil.copy(os.path.join(SRC_ROOT, "examples", name), work)
        files = ["uses_cfg.cu", "vector_add.cu", "transpose.cu"]

        def run(*extra, env=None, files=files):
            e = dict(os.environ, NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
                     GPULINT_MODELS=os.path.join(SRC_ROOT, "models"), GPULINT_CACHE_DIR=cache,
                     TMPDIR=tmp)
            e.pop("GPULINT_CACHE_MAX", None)
            e.update(env or {})
            if os.path.exists(counter):
                os.unlink(counter)
            p = subprocess.run([GPULINT, *files, "--nvcc", wrapper, "--format", "json", *extra],
                               cwd=work, env=e, capture_output=True, timeout=600)
            runs = open(counter).read().count("run") if os.path.exists(counter) else 0
            return p, runs

        first, n1 = run()
        check(first.returncode == 0 and n1 == 3, f"first run compiles 3 files ({n1})",
              first.stderr)
        again, n2 = run()
        check(n2 == 0 and (again.returncode, again.stdout, again.stderr) ==
              (first.returncode, first.stdout, first.stderr),
              f"unchanged re-run: no nvcc ({n2}), the same bytes", again.stderr)
        # Other analysis options on the same code: analysed again (another
        # report), compiled once (the compile is kept apart).
        h200, n2b = run("--gpu", "h200")
        check(h200.returncode == 0 and n2b == 0 and h200.stdout != first.stdout,
              f"another --gpu: a new report without compiling ({n2b})", h200.stderr)
        # The value main sets (another is refused as contradicting it).
        defs, n2c = run("--define", "n=16777216")
        check(defs.returncode == 0 and n2c == 0, f"a --define: no nvcc ({n2c})", defs.stderr)
        fresh = subprocess.run([GPULINT, *files, "--nvcc", nvcc, "--gpu", "h200", "--format",
                                "json", "--no-cache"], cwd=work, capture_output=True,
                               timeout=600, env=dict(os.environ, NO_COLOR="1", LC_ALL="C",
                                                     GPULINT_NO_DEVICE="1", TMPDIR=tmp,
                                                     GPULINT_MODELS=os.path.join(SRC_ROOT,
                                                                                 "models")))
        check(fresh.stdout == h200.stdout,
              "the report from a kept compile is the report of a fresh one", fresh.stderr)
        # A --gpu file (verify --save-model writes them) is part of the key:
        # another constant in it is another report, at the same path.
        card = os.path.join(work, "card.ini")
        with open(os.path.join(SRC_ROOT, "models", "gpu", "h200.ini")) as f:
            text = f.read()
        with open(card, "w") as f:
            f.write(text)
        carded, _ = run("--gpu", card)
        with open(card, "w") as f:
            f.write(text.replace("\nlaunch_ns = 1792", "\nlaunch_ns = 9792", 1))
        edited_card, n2d = run("--gpu", card)
        check(carded.returncode == 0 and edited_card.returncode == 0 and n2d == 0 and
              edited_card.stdout != carded.stdout,
              f"an edited --gpu file: a new report without compiling ({n2d})", edited_card.stderr)
        put("cfg.h", "#define SCALE 3\n")
        edited, n3 = run()
        check(edited.returncode == 0 and n3 == 1,
              f"a header edited: only its includer recompiles ({n3})", edited.stderr)
        put("dev.h", "#define DEV 2\n")
        dev_edited, n3b = run()
        check(dev_edited.returncode == 0 and n3b == 1,
              f"a header only device code includes, edited: its includer recompiles ({n3b})",
              dev_edited.stderr)
        edited = dev_edited
        other, n4 = run("--", "-DEXTRA=1")
        check(other.returncode == 0 and n4 == 3, f"other nvcc arguments recompile ({n4})")
        nocache, n5 = run("--no-cache")
        check(nocache.returncode == 0 and n5 == 3, f"--no-cache compiles everything ({n5})")
        entries = glob.glob(os.path.join(cache, "units", "*", "*.json")) + \
            glob.glob(os.path.join(cache, "compiles", "*", "*.json"))
        for e in entries:
            with open(e, "r+b") as f:
                f.seek(10)
                f.write(b"\x00garbage")
        broken, n6 = run()
        check(broken.returncode == 0 and n6 == 3 and broken.stdout == edited.stdout,
              f"corrupt entries are rebuilt ({n6}), the report unchanged", broken.stderr)
        _, n7 = run()
        check(n7 == 0, f"... and used again afterwards ({n7})")
        ro, _ = run(env={"GPULINT_CACHE_DIR": "/dev/null/gpulint-cache"})
        warn = [l for l in ro.stderr.decode().splitlines() if "cache" in l]
        check(ro.returncode == 0 and len(warn) == 1 and "running without it" in warn[0],
              "an unusable cache directory: one warning, a normal run", ro.stderr)
        shutil.rmtree(os.path.join(cache, "units"))
        e = dict(os.environ, NO_COLOR="1", GPULINT_NO_DEVICE="1", GPULINT_CACHE_DIR=cache,
                 GPULINT_MODELS=os.path.join(SRC_ROOT, "models"), TMPDIR=tmp)
        cmd = [GPULINT, *files, "--nvcc", wrapper, "--format", "json"]
        ps = [subprocess.Popen(cmd, cwd=work, env=e, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE) for _ in range(2)]
        outs = [p.communicate(timeout=600) + (p.returncode,) for p in ps]
        check(all(o[2] == 0 for o in outs) and outs[0][0] == outs[1][0] == edited.stdout,
              "two runs at once on one cache", [o[1] for o in outs])
        _, n8 = run()
        check(n8 == 0, f"after them, a complete cache ({n8})")
        capped, _ = run("--", "-DCAPPED=1", env={"GPULINT_CACHE_MAX": "1"})
        left = glob.glob(os.path.join(cache, "units", "*", "*.json"))
        left += glob.glob(os.path.join(cache, "compiles", "*", "*.json"))
        check(capped.returncode == 0 and len(left) == 0,
              f"GPULINT_CACHE_MAX=1 leaves no entry ({len(left)})")
        run()
        st = subprocess.run([GPULINT, "cache", "--stats"], env=e, capture_output=True, text=True)
        units = [l for l in st.stdout.splitlines() if l.split()[:1] == ["units"]]
        compiles = [l for l in st.stdout.splitlines() if l.split()[:1] == ["compiles"]]
        check(st.returncode == 0 and units and int(units[0].split()[1]) == 3 and compiles and
              int(compiles[0].split()[1]) == 3,
              "cache --stats counts the 3 results and their 3 compiles", st.stdout)
        cl = subprocess.run([GPULINT, "cache", "--clear"], env=e, capture_output=True, text=True)
        check(cl.returncode == 0 and not glob.glob(os.path.join(cache, "units", "*", "*.json")),
              "cache --clear empties it", cl.stdout + cl.stderr)
        # A header only libclang reads (under __clang__: nvcc's list lacks
        # it) sets the launch's size: edited, the analysis runs again on the
        # kept compile and reports the new grid.
        put("n.h", "#define N 1024\n")
        put("clang_sized.cu", '#ifdef __clang__\n#include "n.h"\n#else\n#define N 1024\n#endif\n'
            '__global__ void k(float *x) { x[blockIdx.x * 256 + threadIdx.x] = 1; }\n'
            'int main() { float *x; cudaMalloc(&x, N * 4); k<<<N / 256, 256>>>(x); }\n')
        sized, _ = run(files=["clang_sized.cu"])
        put("n.h", "#define N 4096\n")
        resized, n9 = run(files=["clang_sized.cu"])
        grids = [[l.get("grid") for k in json.loads(r.stdout)["kernels"]
                  for l in k.get("launches", [])] if r.returncode == 0 else None
                 for r in (sized, resized)]
        check(n9 == 0 and grids == [[[4, 1, 1]], [[16, 1, 1]]],
              f"a header only libclang reads, edited: analysed again ({grids}), "
              f"not compiled ({n9})", resized.stderr)
    check.finish()


main()
