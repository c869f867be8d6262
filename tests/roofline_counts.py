#!/usr/bin/env python3
"""roofline_counts: the FLOP and DRAM-byte totals gpulint derives from the
source of the examples, against counts worked out by hand (each case says
how). usage: roofline_counts.py GPULINT REPO_ROOT. Ends with
"N passed, N failed"."""
import json, os, subprocess, sys

MiB = 1 << 20

# (example, kernel, launch line or None, defines, fp32 FLOPs, DRAM bytes,
#  upper bound?, how the hand count goes)
CASES = [
    ("transpose", "transposeNaive", 107, [], 0, 2 * 4 * MiB, False,
     "1024x1024 floats read once and written once: 2 x 4 MiB, no arithmetic"),
    ("transpose", "transposeTilePadded", 109, [], 0, 2 * 4 * MiB, False,
     "the tile lives in shared memory: DRAM still sees each element once each way"),
    ("transpose", "transposeTiled<16, 1>", 113, [], 0, 2 * 4 * MiB, False,
     "16x16 tiles, 16x4 blocks looping 4 rows: same 2 x 4 MiB"),
    ("relu", "reluFloat4", 38, [], 0, (1 << 22) * 16 * 2, False,
     "2^24 floats as 2^22 float4: 16 B read + 16 B written per thread; fmaxf is no FLOP"),
    ("relu", "relu", 37, [], 0, (1 << 24) * 8, False,
     "x[i] appears twice in the source (condition and arm) but is loaded once, as nvcc "
     "compiles it: 4 B read + 4 B written per element"),
    ("divergence", "laneLoop", 81, [], (1 << 20) // 32 * 496,
     4 * ((1 << 20) // 32 * 496) + 4 * (1 << 20), False,
     "lane l adds l terms: 0+1+...+31 = 496 adds and 4 B loads per warp of 32 threads, "
     "2^20 threads, plus one 4 B store each"),
    ("divergence", "boundsCheck", 82, [], 1 << 20, 8 * (1 << 20), False,
     "one multiply, one 4 B load and one 4 B store per thread, 2^20 threads"),
    ("gemm_tiled", "sgemmTiled<64, 64, 8, 8>", 74, ["M=1024", "N=1024", "K=1024"],
     2 * 1024 ** 3, 4 * (1024 * 1024 * 4), False,
     "the annotation 2MNK and 4(MK + KN + 2MN) with M = N = K = 1024"),
    ("vector_add", "vectorAdd", 26, ["n=16777216"], 1 << 24, 12 * (1 << 24), False,
     "the annotation: n adds, 12 B per element (two loads, one store)"),
]

def run(gpulint, root, example, defines):
    args = [gpulint, f"examples/{example}.cu", "--arch", "sm_90", "--format", "json"]
    for d in defines:
        args += ["--define", d]
    env = dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_MODELS=os.path.join(root, "models"))
    p = subprocess.run(args, cwd=root, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    return json.loads(p.stdout)["roofline"]

def main():
    gpulint, root = sys.argv[1], sys.argv[2]
    passed = failed = 0
    cache = {}
    for example, kernel, line, defines, flops, dram, upper, how in CASES:
        key = (example, tuple(defines))
        if key not in cache:
            cache[key] = run(gpulint, root, example, defines)
        got = [r for r in cache[key] if r["kernel"] == kernel and (line is None or r["line"] == line)]
        if len(got) != 1:
            print(f"FAIL {example} {kernel}: {len(got)} roofline entries")
            failed += 1
            continue
        r = got[0]
        ok = (r["flops"]["fp32"] == flops and r["requested_bytes"] == dram
              and r["upper_bound"] == upper)
        print(f"{'ok  ' if ok else 'FAIL'} {example} {kernel}: {r['flops']['fp32']} FLOP, "
              f"{r['requested_bytes']} B, upper bound {r['upper_bound']} (hand: {flops}, {dram}, "
              f"{upper}: {how})")
        passed += ok
        failed += not ok
    # Counts that cannot be derived say so instead of guessing.
    # scale(): one 4 B load and one 4 B store per thread; grid (n + threads - 1)
    # / threads blocks of `threads`, both from argv.
    for r in run(gpulint, root, "argv_launch", []):
        ok = (r["requested_bytes"] == "8 * ((n + threads - 1) / threads * threads)"
              and r.get("unknown") in ("n", "threads") and "min_time_s" not in r)
        print(f"{'ok  ' if ok else 'FAIL'} argv_launch {r['kernel']}: stays symbolic "
              f"({r['requested_bytes']}), unknown '{r.get('unknown')}'")
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
