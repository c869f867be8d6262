#!/usr/bin/env python3
"""gpulint wrap inside a real build, and --from over what it left.

usage: wrap_build.py GPULINT SRC_ROOT

The build's view: a wrapped nvcc command prints exactly what the same
command prints without gpulint (warnings, errors), exits with its code,
leaves the same object, and a user's own -Xptxas -v still shows. A signal
that ends the compiler ends wrap the same way; a command that is not nvcc
runs untouched. gpulint's view: `gpulint --from` over the records gives
the same kernels as gpulint compiling the same files itself; records go
beside the objects or into --dir / $GPULINT_WRAP_DIR; a failed compile
drops its record. With cmake and ccache installed, a CMake build with
CMAKE_CUDA_COMPILER_LAUNCHER="gpulint;wrap;ccache" leaves records that a
ccache hit reproduces.
Ends with "N passed, N failed" (exit 77, "skipped: no nvcc", without nvcc).
"""

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc, find_nvcc  # noqa: E402

GPULINT, SRC_ROOT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
check = Checks()

WARNS = """\
__global__ void warns(float *x)
{
    int unused;
    x[threadIdx.x] *= 2.0f;
}
"""
BROKEN = "__global__ void broken(float *x) { x[threadIdx.x] = y; }\n"


def env(**extra):
    e = dict(os.environ, NO_COLOR="1", LC_ALL="C", GPULINT_NO_DEVICE="1",
             GPULINT_MODELS=os.path.join(SRC_ROOT, "models"))
    e.pop("GPULINT_WRAP_DIR", None)
    e.update(extra)
    return e


def run(argv, cwd, **extra):
    return subprocess.run(argv, cwd=cwd, env=env(**extra), capture_output=True, text=True,
                          timeout=600)


def no_times(text):
    return "".join(l for l in text.splitlines(True) if "Compile time" not in l)


def kernels(report_json):
    try:
        doc = json.loads(report_json)
    except ValueError:
        return []
    return sorted((k["name"], k["arch"], k["registers"], k["static_smem"], k["stack"],
                   k["spill_stores"], k["spill_loads"], k["barriers"], k["file"], k["line"],
                   json.dumps(k["occupancy_by_block"], sort_keys=True)) for k in doc["kernels"])


def make_style(nvcc, work):
    """NVCC="gpulint wrap nvcc": per-object commands as a Makefile runs them."""
    for name in ("vector_add.cu", "transpose.cu"):
        shutil.copy(os.path.join(SRC_ROOT, "examples", name), work)
    with open(os.path.join(work, "warns.cu"), "w") as f:
        f.write(WARNS)
    with open(os.path.join(work, "broken.cu"), "w") as f:
        f.write(BROKEN)
    os.mkdir(os.path.join(work, "obj"))
    os.mkdir(os.path.join(work, "plain"))
    arch = "-arch=sm_80"

    # The build sees what it would see without gpulint.
    for src in ("warns.cu", "vector_add.cu", "broken.cu"):
        stem = src[:-3]
        plain = run([nvcc, arch, "-c", src, "-o", f"plain/{stem}.o"], work)
        wrapped = run([GPULINT, "wrap", nvcc, arch, "-c", src, "-o", f"obj/{stem}.o"], work)
        check(wrapped.returncode == plain.returncode,
              f"wrap {src}: nvcc's exit status ({plain.returncode})",
              f"wrapped {wrapped.returncode}\n{wrapped.stderr}")
        check(wrapped.stderr.replace("obj/", "plain/") == plain.stderr
              and wrapped.stdout == plain.stdout,
              f"wrap {src}: stdout and stderr as nvcc's own (no ptxas lines added)",
              f"plain:\n{plain.stderr}\nwrapped:\n{wrapped.stderr}")
        rec = os.path.join(work, "obj", f"{stem}.o.gpulint.json")
        if plain.returncode == 0:
            check(os.path.getsize(os.path.join(work, "obj", f"{stem}.o")) ==
                  os.path.getsize(os.path.join(work, "plain", f"{stem}.o")),
                  f"wrap {src}: the object is built (same size as without wrap)")
            check(os.path.exists(rec), f"wrap {src}: a record beside the object")
        else:
            check(not os.path.exists(rec), f"wrap {src}: a failed compile leaves no record")

    # A record that the next, failing, compile of the same object removes.
    with open(os.path.join(work, "flaky.cu"), "w") as f:
        f.write(WARNS)
    run([GPULINT, "wrap", nvcc, arch, "-c", "flaky.cu", "-o", "obj/flaky.o"], work)
    had = os.path.exists(os.path.join(work, "obj", "flaky.o.gpulint.json"))
    with open(os.path.join(work, "flaky.cu"), "w") as f:
        f.write(BROKEN)
    run([GPULINT, "wrap", nvcc, arch, "-c", "flaky.cu", "-o", "obj/flaky.o"], work)
    check(had and not os.path.exists(os.path.join(work, "obj", "flaky.o.gpulint.json")),
          "wrap: a compile that fails drops the record of the object it replaced")
    os.remove(os.path.join(work, "flaky.cu"))

    # The user's own -Xptxas -v stays visible; the record is kept all the same.
    plain = run([nvcc, arch, "-c", "transpose.cu", "-o", "plain/transpose.o", "-Xptxas", "-v"],
                work)
    wrapped = run([GPULINT, "wrap", nvcc, arch, "-c", "transpose.cu", "-o", "obj/transpose.o",
                   "-Xptxas", "-v"], work)
    check(no_times(wrapped.stderr) == no_times(plain.stderr) and "ptxas info" in wrapped.stderr,
          "wrap with the user's own -Xptxas -v: ptxas's lines still shown",
          wrapped.stderr[-800:])
    check(os.path.exists(os.path.join(work, "obj", "transpose.o.gpulint.json")),
          "wrap with the user's own -Xptxas -v: record kept")

    # --from gives what gpulint finds compiling the same files itself.
    files = ["transpose.cu", "vector_add.cu", "warns.cu"]
    own = run([GPULINT, "--no-source", "--no-cache", "--arch", "sm_80", "-f", "json", *files,
               "--", arch], work)
    got = run([GPULINT, "--from", "obj", "--arch", "sm_80", "-f", "json"], work)
    check(own.returncode == 0 and got.returncode == 0 and kernels(got.stdout) == kernels(own.stdout)
          and len(kernels(own.stdout)) >= 8,
          "--from: the same kernels, resources, lines and occupancy as gpulint's own compile",
          f"{own.stderr}{got.stderr}\n{kernels(got.stdout)}\n{kernels(own.stdout)}")
    one = run([GPULINT, "--from", "obj", "--arch", "sm_80", "-f", "json", "vector_add.cu"], work)
    check(one.returncode == 0 and {k[8] for k in kernels(one.stdout)} == {"vector_add.cu"},
          "--from FILE: only that file's records", one.stderr)
    chk = run([GPULINT, "check", "--from", "obj", "--arch", "sm_80", "--max-regs", "20"], work)
    check(chk.returncode == 1 and "transpose.cu:" in chk.stdout and "uses 26 registers" in chk.stdout,
          "check --from: a kernel over the limit fails the build (exit 1)", chk.stdout + chk.stderr)

    # --dir and $GPULINT_WRAP_DIR; objects of one name in two folders stay apart.
    recs = os.path.join(work, "records")
    for sub, how in (("t1", "--dir"), ("t2", "env")):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
        cmd = [GPULINT, "wrap"] + (["--dir", recs] if how == "--dir" else []) + \
            [nvcc, arch, "-c", "vector_add.cu", "-o", f"{sub}/vector_add.o"]
        r = run(cmd, work, **({"GPULINT_WRAP_DIR": recs} if how == "env" else {}))
        check(r.returncode == 0, f"wrap via {how}: compiles", r.stderr)
    names = sorted(os.listdir(recs)) if os.path.isdir(recs) else []
    check(len(names) == 2 and all(n.startswith("vector_add.o-") for n in names),
          "--dir/$GPULINT_WRAP_DIR: one record per object, named apart", names)
    check(not glob.glob(os.path.join(work, "t1", "*.gpulint.json")),
          "--dir: nothing written beside the object")

    # Not nvcc: untouched, exit status and signals passed on.
    r = run([GPULINT, "wrap", "sh", "-c", "echo out; echo err >&2; exit 3"], work)
    check((r.returncode, r.stdout, r.stderr) == (3, "out\n", "err\n"),
          "wrap of a command that is not nvcc: output and exit status as its own",
          (r.returncode, r.stdout, r.stderr))
    r = run([GPULINT, "wrap", "sh", "-c", "kill -TERM $$"], work)
    check(r.returncode == -signal.SIGTERM, "wrap: a compiler killed by SIGTERM ends wrap by SIGTERM",
          r.returncode)
    # The same through the nvcc path (a fake nvcc that kills itself).
    fake = os.path.join(work, "fake", "nvcc")
    os.makedirs(os.path.dirname(fake))
    with open(fake, "w") as f:
        f.write('#!/bin/sh\necho "args: $*" >&2\nkill -INT $$\n')
    os.chmod(fake, 0o755)
    r = run([GPULINT, "wrap", fake, "-c", "a.cu"], work)
    check(r.returncode == -signal.SIGINT and r.stderr == "args: -c a.cu -Xptxas -v\n",
          "wrap of nvcc: -Xptxas -v appended, SIGINT passed on", (r.returncode, r.stderr))


def cmake_ccache(nvcc, work):
    cmake, ccache = shutil.which("cmake"), shutil.which("ccache")
    if not (cmake and ccache and shutil.which("ninja")):
        print("note: cmake, ccache or ninja missing: the CMake launcher case is not run")
        return
    src = os.path.join(work, "cm")
    os.makedirs(os.path.join(src, "src"))
    for name in ("vector_add.cu", "transpose.cu"):
        shutil.copy(os.path.join(SRC_ROOT, "examples", name), os.path.join(src, "src"))
    with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CUDA)\n"
                "set(CMAKE_CUDA_ARCHITECTURES 80)\n"
                "add_library(demo OBJECT src/vector_add.cu src/transpose.cu)\n")
    e = {"CCACHE_DIR": os.path.join(work, "ccache"), "CUDACXX": nvcc}
    conf = run([cmake, "-S", src, "-B", os.path.join(src, "build"), "-G", "Ninja",
                f"-DCMAKE_CUDA_COMPILER_LAUNCHER={GPULINT};wrap;{ccache}"], work, **e)
    if not check(conf.returncode == 0, "CMake configures with gpulint;wrap;ccache as launcher",
                 conf.stdout[-1500:] + conf.stderr[-1500:]):
        return
    build = os.path.join(src, "build")
    b1 = run(["ninja", "-C", build], work, **e)
    recs = sorted(glob.glob(os.path.join(build, "**", "*.gpulint.json"), recursive=True))
    check(b1.returncode == 0 and len(recs) == 2 and "ptxas" not in b1.stdout + b1.stderr,
          "CMake build: both objects built, two records, no ptxas lines in the build log",
          b1.stdout[-1500:] + b1.stderr[-1500:])
    first = run([GPULINT, "--from", build, "--arch", "sm_80", "-f", "json"], src)
    run(["ninja", "-C", build, "-t", "clean"], work, **e)
    for r in recs:
        os.remove(r)
    b2 = run(["ninja", "-C", build], work, **e)
    stats = run([ccache, "--print-stats"], work, **e).stdout
    hits = sum(int(l.split("\t")[1]) for l in stats.splitlines()
               if l.split("\t")[0] in ("direct_cache_hit", "preprocessed_cache_hit"))
    again = run([GPULINT, "--from", build, "--arch", "sm_80", "-f", "json"], src)
    check(b2.returncode == 0 and hits >= 2 and first.returncode == 0 and
          kernels(again.stdout) == kernels(first.stdout) and len(kernels(first.stdout)) >= 7,
          "CMake rebuild from ccache: the records come back the same (ccache replays ptxas's lines)",
          f"hits {hits}\n{first.stderr}{again.stderr}")


def main():
    skip_without_nvcc()
    nvcc = find_nvcc()
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "make")
        os.mkdir(work)
        make_style(nvcc, work)
        cmake_ccache(nvcc, tmp)
    check.finish()


if __name__ == "__main__":
    main()
