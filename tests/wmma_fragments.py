#!/usr/bin/env python3
"""The per-lane fragment counts of `gpulint roofline --mma` against the
toolkit: a host program compiled with nvcc prints
nvcuda::wmma::fragment<...>::num_elements from the CUDA headers' mma.h for
every WMMA fragment gpulint claims, and gpulint's `lanes.wmma` must give the
same numbers (and `lanes.c`, each accumulator element held once, the
accumulator's). Needs nvcc, no GPU: the program only reads constants.

Usage: wmma_fragments.py GPULINT SRCDIR
Ends with "N passed, N failed" (exit 77, "skipped: no nvcc", without nvcc).
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, find_nvcc, skip_without_nvcc  # noqa: E402

# gpulint precision -> the WMMA element types (operand, accumulator).
TYPES = {
    "fp16-tensor": ("__half", "float"),
    "bf16-tensor": ("__nv_bfloat16", "float"),
    "int8-tensor": ("signed char", "int"),
    "tf32-tensor": ("nvcuda::wmma::precision::tf32", "float"),
    "fp64-tensor": ("double", "double"),
}
FRAGMENTS = [(p, s) for p in ("fp16-tensor", "bf16-tensor", "int8-tensor")
             for s in ("m16n16k16", "m32n8k16", "m8n32k16")] + \
    [("tf32-tensor", "m16n16k8"), ("fp64-tensor", "m8n8k4")]


def dims(shape):
    m, rest = shape[1:].split("n")
    n, k = rest.split("k")
    return int(m), int(n), int(k)


def main():
    gpulint, src = sys.argv[1], sys.argv[2]
    skip_without_nvcc()
    nvcc = find_nvcc()
    check = Checks()
    lines = ["#include <mma.h>", "#include <cstdio>", "using namespace nvcuda::wmma;",
             "int main() {"]
    for prec, shape in FRAGMENTS:
        m, n, k = dims(shape)
        t, acc = TYPES[prec]
        lines.append(
            f'  printf("{prec} {shape} %d %d %d\\n", '
            f"(int)fragment<matrix_a, {m}, {n}, {k}, {t}, row_major>::num_elements, "
            f"(int)fragment<matrix_b, {m}, {n}, {k}, {t}, col_major>::num_elements, "
            f"(int)fragment<accumulator, {m}, {n}, {k}, {acc}>::num_elements);")
    lines += ["  return 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        cu, exe = os.path.join(tmp, "frag.cu"), os.path.join(tmp, "frag")
        with open(cu, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([nvcc, "-arch=sm_80", "-o", exe, cu], capture_output=True, text=True)
        if not check(r.returncode == 0, "mma.h's fragments compile on the host", r.stderr):
            check.finish()
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    truth = {}
    for line in out.splitlines():
        prec, shape, a, b, c = line.split()
        truth[(prec, shape)] = [int(a), int(b), int(c)]
    env = dict(os.environ, GPULINT_MODELS=os.path.join(src, "models"), GPULINT_NO_DEVICE="1")
    for prec, shape in FRAGMENTS:
        r = subprocess.run([gpulint, "roofline", "--gemm", "64,64,64", "--mma", shape,
                            "--precision", prec, "--gpu", "a100-sxm4-80gb", "--format", "json"],
                           capture_output=True, text=True, env=env)
        got = None
        if r.returncode == 0:
            lanes = json.loads(r.stdout)["lanes"]
            w = lanes["wmma"]
            got = [w["a"], w["b"], w["accumulator"]] if w else None
            check(lanes["c"] == truth[(prec, shape)][2],
                  f"{prec} {shape}: accumulator elements per lane {lanes['c']}",
                  f"mma.h: {truth[(prec, shape)][2]}")
        check(got == truth[(prec, shape)],
              f"{prec} {shape}: WMMA num_elements {got} as mma.h declares",
              f"mma.h: {truth[(prec, shape)]}; gpulint: {r.stdout[-300:]}{r.stderr}")
    check.finish()


if __name__ == "__main__":
    main()
