#!/usr/bin/env python3
"""footprint_counts: the compulsory DRAM bytes gpulint derives for the
reference kernels (kernels/*.cu, as tests/data/verify/predictions-h100-sxm.json
records them; verify_contract keeps that file equal to what this build
predicts) against the bytes worked out by hand from the kernels' code and
the sizes in kernels/verify.h. A figure labelled exact must equal the hand
count; one labelled a lower bound must not exceed it (and must say why).
usage: footprint_counts.py REPO_ROOT. Ends with "N passed, N failed"."""
import json
import os
import re
import sys

ROOT = sys.argv[1]

# Sizes from kernels/verify.h.
SIZES = {}
with open(os.path.join(ROOT, "kernels", "verify.h")) as f:
    for line in f:
        m = re.match(r"#define (VEC_N|TR_N|RED_N|STENCIL_N|GEMM_N) \((.*)\)|#define (\w+_N) (\d+)",
                     line)
        if m:
            name, val = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            SIZES[name] = eval(val, {}, {})
V, T, R, S, G = (SIZES[k] for k in ("VEC_N", "TR_N", "RED_N", "STENCIL_N", "GEMM_N"))

# (kernel, bytes read, bytes written, exact?, how the hand count goes)
CASES = [
    ("rf_vector_add", 8 * V, 4 * V, True, "c[i] = a[i] + b[i] over VEC_N floats"),
    ("rf_strided_copy", 4 * V, 4 * V, True,
     "every other float of a (4 of each 8 bytes) into c: VEC_N floats each way"),
    ("rf_stencil", 4 * S * S - 16, 4 * (S - 2) ** 2, True,
     "a 5-point stencil reads all of g but its 4 corners, writes h's interior"),
    ("rf_fma_heavy", 4 * V, 4 * V, True, "one float in, one out per thread"),
    ("red_shuffle8", 4 * R, 4 * (R // 4096), True,
     "RED_N ints read once; one int per 512-thread block of 8 elements each"),
    ("tr_naive", 4 * T * T, 4 * T * T, True, "TR_N x TR_N floats read once, written once"),
    ("tr_tile", 4 * T * T, 4 * T * T, True, "the same through a shared tile"),
    ("tr_padded", 4 * T * T, 4 * T * T, True, "the same, tile padded"),
    ("tr_swizzled", 4 * T * T, 4 * T * T, True, "the same, tile swizzled"),
    ("gemm_naive", 8 * G * G, 4 * G * G, True, "A and B read, C written: GEMM_N^2 floats each"),
    ("gemm_smem", 8 * G * G, 4 * G * G, True, "the same through shared tiles"),
    ("gemm_regtile", 8 * G * G, 4 * G * G, True,
     "the same; B's tile index (tid + 256 i) / 64 cuts a flattened thread index, 16 ty + tx"),
    ("gemm_vec", 8 * G * G, 4 * G * G, True,
     "the same as float4s; (tid % 32) * 4 and tid / 32 cut it too"),
    ("red_neighbored", 4 * R, 4 * (R // 2) + 4 * (R // 512), True,
     "in place: every int read; stride *= 2 (1 .. 256, each followed) writes the even "
     "ints, and each 512-thread block one int of out"),
    # Lower bounds: the labelled figure may be short of the hand count.
    ("red_complete8", 4 * R, 4 * R, False,
     "in place, written where other threads read: those bytes count as not read"),
    ("gemm_wmma", 4 * G * G, 4 * G * G, True,
     "half-precision A and B; C (floats) written by wmma::store_matrix_sync, row-major"),
]

passed = failed = 0


def check(ok, what):
    global passed, failed
    print(("ok   " if ok else "FAIL ") + what)
    passed += ok
    failed += not ok


pred = json.load(open(os.path.join(ROOT, "tests", "data", "verify", "predictions-h100-sxm.json")))
roof = {}
for r in pred["roofline"]:
    roof.setdefault(r["kernel"], r)
for kernel, rd, wr, exact, how in CASES:
    c = (roof.get(kernel) or {}).get("dram_compulsory_bytes") or {}
    if "read" not in c:
        check(False, f"{kernel}: no compulsory bytes ({c.get('why', 'no roofline entry')})")
        continue
    label = c["label"]
    got = f"{c['read']} read, {c['write']} written ({label})"
    if exact:
        check(label == "exact" and c["read"] == rd and c["write"] == wr,
              f"{kernel}: {got}; by hand {rd}, {wr}: {how}")
    else:
        check(label == "lower_bound" and bool(c.get("why")) and c["read"] <= rd and
              c["write"] <= wr, f"{kernel}: {got} at most {rd}, {wr}: {how}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
