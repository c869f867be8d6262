#!/usr/bin/env python3
"""ncu_compare: gpulint's predicted shared-memory wavefronts per request and
global sectors per request, kernel by kernel, against what Nsight Compute
measured (tests/data/ncu/<device>/ncu-<example>.csv, from
scripts/ncu-examples.sh).

usage: ncu_compare.py GPULINT REPO_ROOT [DEVICE_DIR]

What is compared is the total number of shared-memory wavefronts a kernel
caused, over all its launches: measured by
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum, predicted as the
sum over its access sites of (average wavefronts x requests per block) x
blocks launched. Instruction counts are shown beside it but not judged:
the hardware also issues shared instructions in warps whose lanes are all
predicated off (a reduction's `if (tid < s)`), which cost no wavefront.
Kernels the compiler reshaped so that source sites no longer map onto the
instructions (vectorised or merged accesses) are reported, not hidden.
Ends with "N passed, N failed"."""
import csv, json, os, re, subprocess, sys

def kernel_key(name):
    name = re.sub(r'^void ', '', name)
    depth = 0
    for i, ch in enumerate(name):
        if ch == '<':
            depth += 1
        elif ch == '>':
            depth -= 1
        elif ch == '(' and depth == 0:
            name = name[:i]
            break
    return re.sub(r'\s+', '', name)

def measured(path):
    out = {}
    with open(path) as f:
        rows = [r for r in csv.reader(l for l in f if l.startswith('"'))]
    head = rows[0]
    ki, mi, vi = (head.index(c) for c in ("Kernel Name", "Metric Name", "Metric Value"))
    for r in rows[1:]:
        d = out.setdefault(kernel_key(r[ki]), {})
        d[r[mi]] = d.get(r[mi], 0.0) + float(r[vi].replace(',', '') or 0)
    return out

# The sizes each example's main() passes to its kernels (kernel parameter
# names), so that bounds checks on them evaluate.
DEFINES = {
    "transpose": ["width=1024", "height=1024"],
    "stencil": ["nx=4096", "ny=4096"],
    "reduction": ["n=16777216"],
    "gemm_tiled": ["M=1024", "N=1024", "K=1024"],
}

def predicted(gpulint, src, root):
    env = dict(os.environ, GPULINT_NO_DEVICE="1", GPULINT_MODELS=os.path.join(root, "models"))
    name = os.path.splitext(os.path.basename(src))[0]
    args = [a for d in DEFINES.get(name, []) for a in ("--define", d)]
    p = subprocess.run([gpulint, src, "--arch", "sm_90", "--format", "json"] + args, cwd=root,
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        return None
    rep = json.loads(p.stdout)
    blocks = {}
    for k in rep.get("kernels", []):
        for l in k.get("launches", []):
            g = l.get("grid")
            if g:
                name = re.sub(r'\s+', '', l["kernel"])
                blocks[name] = blocks.get(name, 0) + g[0] * g[1] * g[2]
    pred = {}
    for a in rep.get("shared_accesses", []):
        k = re.sub(r'\s+', '', a["kernel"])
        d = pred.setdefault(k, {"ld": [0.0, 0, 0, 0], "st": [0.0, 0, 0, 0]})
        kind = "ld" if a["kind"] == "load" else "st"
        if not a.get("analyzed"):
            d[kind][2] += 1
            continue
        if not a.get("exact", False):
            d[kind][3] += 1
        n = a.get("requests_per_block", 0) * blocks.get(k, 0)
        d[kind][0] += a["average_wavefronts"] * n
        d[kind][1] += n
    return pred

def main():
    gpulint, root = sys.argv[1], sys.argv[2]
    dev = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "tests/data/ncu/h200")
    passed = failed = skipped = 0
    for name in sorted(os.listdir(dev)):
        m = re.match(r'ncu-(.*)\.csv$', name)
        if not m:
            continue
        src = os.path.join("examples", m.group(1) + ".cu")
        meas = measured(os.path.join(dev, name))
        pred = predicted(gpulint, src, root)
        if pred is None:
            print(f"FAIL {src}: gpulint failed")
            failed += 1
            continue
        for k, d in sorted(meas.items()):
            for kind in ("ld", "st"):
                req = d.get(f"smsp__inst_executed_op_shared_{kind}.sum", 0)
                wf = d.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{kind}.sum", 0)
                if req == 0 and wf == 0:
                    continue
                p = pred.get(k, {}).get(kind)
                if not p or p[1] == 0:
                    why = f"{p[2]} site(s) not analysed" if p and p[2] else "no site in the file"
                    print(f"skip {src} {k} shared {kind}: measured {wf:.0f} wavefronts "
                          f"({req:.0f} instructions); no prediction ({why})")
                    skipped += 1
                    continue
                line = (f"{src} {k} shared {kind}: measured {wf:.0f} wavefronts "
                        f"({req:.0f} instructions), predicted {p[0]:.0f} ({p[1]} requests)")
                # Comparable only when the prediction rests on no assumption
                # and the kernel issued one shared instruction per predicted
                # request (no vectorised, merged or predicated-off copies).
                if p[3]:
                    print(f"skip {line}: {p[3]} site(s) rest on an unevaluated guard or bound")
                    skipped += 1
                    continue
                if req != p[1]:
                    print(f"skip {line}: the instructions do not map one-to-one onto the "
                          f"source's requests")
                    skipped += 1
                    continue
                ok = abs(wf - p[0]) <= 0.005 * max(1.0, wf)
                print(f"{'ok  ' if ok else 'FAIL'} {line}")
                passed += ok
                failed += not ok
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
