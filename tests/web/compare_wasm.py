#!/usr/bin/env python3
"""compare_wasm.py: the web page's WebAssembly build gives the command line's answers.

    compare_wasm.py BUILD_DIR SOURCE_DIR

1. A sample of the cuda_occupancy.h sweep (tests/unit/test_occ_nvidia with
   GPULINT_SWEEP=quick writes every 101st case with the header's answer)
   through gpulint.wasm: blocks per SM equal to NVIDIA's on every case.
2. Requests with curves, worked steps and refusals (every arch and GPU,
   hypothetical SMs, carveouts, opt-in, barriers, bad values) through the
   wasm under Node and through the native twin (gpulint-web-native, the same
   C compiled for this machine): byte-identical answers.
3. A spread of those requests against `gpulint occupancy --format json`:
   the same contract fields, and the same one-line message for a refused
   input.
4. Every exercise whose calculator the page has: its answer, with and
   without the worked steps, is the text `gpulint exercises` recorded in
   exercises/answers/ (byte for byte); the others say they are not in the
   page yet.
5. Calculator command lines beyond the exercises (launch planning and every
   roofline mode, refusals included) typed into the page's command tab:
   the text `gpulint` prints, or its one-line message, byte for byte.
Skips (exit 77) when gpulint.wasm was not built (meson -Dweb) or node is
missing.
"""
import configparser
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

CONTRACT = ["threads_per_block", "registers_per_thread", "static_smem", "dynamic_smem", "barriers",
            "carveout_percent", "blocks_per_sm", "warps_per_sm", "max_warps_per_sm", "occupancy",
            "limiters", "limits", "allocated_registers_per_block", "allocated_smem_per_block",
            "smem_per_sm_used", "not_given"]


def same_fields(cli_answer, wasm_answer, keys):
    """The contract fields agree; occupancy to the 6 significant digits the
    command line's JSON prints (the wasm gives every digit)."""
    for k in keys:
        a, b = cli_answer.get(k), wasm_answer.get(k)
        if k == "occupancy" and isinstance(a, float) and isinstance(b, float):
            if a != float(f"{b:.6g}"):
                return False
        elif a != b:
            return False
    return True


def run_lines(cmd, lines, env=None):
    out = subprocess.run(cmd, input="".join(l + "\n" for l in lines), capture_output=True,
                         text=True, env=env, check=True).stdout
    return out.splitlines()


def sweep_sample(build):
    exe = os.path.join(build, "tests", "unit", "test_occ_nvidia")
    if not os.path.exists(exe):
        return []
    dump = os.path.join(build, "web-sweep-dump.txt")
    env = dict(os.environ, GPULINT_SWEEP="quick", GPULINT_SWEEP_DUMP=dump)
    subprocess.run([exe], env=env, capture_output=True, check=True)
    with open(dump) as f:
        rows = [l.rstrip("\n").split("\t") for l in f]
    os.unlink(dump)
    return [(req, int(blocks)) for req, blocks in rows]


def request_set(models):
    reqs = []
    shapes = [(32, 0, "0"), (128, 32, "0"), (256, 40, "8K"), (256, 72, "20K"), (512, 64, "48K"),
              (1024, 32, "0"), (96, 255, "100K"), (640, 168, "4K")]
    for a in models["archs"]:
        for t, r, s in shapes:
            reqs.append(f"cmd=occupancy&arch={a['name']}&threads={t}&regs={r}&smem={s}")
        reqs.append(f"cmd=occupancy&arch={a['name']}&threads=256")
        reqs.append(f"cmd=occupancy&arch={a['name']}&threads=128&regs=32&dynamic-smem=64K"
                    f"&max-dynamic-smem=64K&carveout=50&barriers=4")
    for p in models["products"]:
        reqs.append(f"cmd=occupancy&gpu={p['id']}&threads=256&regs=40&smem=8K")
    for m in ["threads/sm=2048,regs/sm=65536,smem/sm=48K,granularity=none",
              "threads/sm=1536,regs/sm=32768,smem/sm=16K,blocks/sm=8",
              "threads/sm=2048,regs/sm=65536,smem/sm=96K,reg-unit=256,smem-unit=256,subpartitions=4"]:
        for t, r, s in shapes[:5]:
            reqs.append(f"cmd=occupancy&machine={m}&threads={t}&regs={r}&smem={s}")
    reqs += [
        "cmd=occupancy&threads=256&regs=40",                       # the default GPU
        "cmd=occupancy&arch=sm_90&threads=abc",
        "cmd=occupancy&arch=sm_90&threads=0",
        "cmd=occupancy&arch=sm_90&threads=256&smem=1Q",
        "cmd=occupancy&arch=sm_90&threads=256&carveout=150",
        "cmd=occupancy&arch=sm_99&threads=256",
        "cmd=occupancy&gpu=nope&threads=256",
        "cmd=occupancy&arch=sm_90&gpu=h100-sxm&threads=256",
        "cmd=occupancy&machine=regs/sm=abc&threads=256",
        "cmd=occupancy&arch=sm_90&threads=256&foo=1",
        "cmd=occupancy&arch=sm_90&threads=2048",                   # cannot launch
        "cmd=occupancy&gpu=h200&threads=128&regs=32&cluster=2,4x2",
        "cmd=occupancy&gpu=h200&threads=128&cluster=16&non-portable=yes&grid=64",
        "cmd=occupancy&gpu=h200&threads=128&cluster=16",          # needs the opt-in
        "cmd=occupancy&gpu=h200&threads=128&cluster=2&grid=3",    # not whole clusters
        "cmd=occupancy&arch=sm_80&threads=128&cluster=2",
        "cmd=occupancy&gpu=h200&threads=128&cluster=0",
        "cmd=occupancy&gpu=h200&threads=128&gpc-sms=4,0&cluster=2",
        "cmd=occupancy&arch=sm_90&threads=256&regs=300",
        "cmd=occupancy&arch=sm_80&threads=256&smem=200K",
        "cmd=occupancy&arch=sm_90",
        "cmd=nope",
        "threads=256",
        "cmd=occupancy&threads",
        "",
        # command lines, as the page's command tab sends them
        '$ bank --decl "float tile[32][33]" --access "tile[threadIdx.x][threadIdx.y & 31]" --block 32x8 --explain',
        "$ coalesce --stride 2 --elem 8 --explain",
        "$ warps --block 40 --grid 2 --explain",
        '$ divergence --trips "(threadIdx.x % 4) + 1" --block 64 --grid 3 --explain',
        '$ divergence --cond "(blockIdx.x * blockDim.x + threadIdx.x) / 48 % 2 == 0" --block 96 --grid 2 --explain',
        '$ divergence --cond "threadIdx.x <" --block 32',
        "$ occupancy --arch sm_80 --threads 256 --regs 40 --smem 8K --explain",
        "$ bank --stride",
        "$ roofline --gpu h100-sxm",
        "$ bank --decl 'float t[32",
        "$ ",
    ]
    return reqs


def cli_args(req):
    """The command line that asks what a request asks; None when it has no twin."""
    args = ["occupancy", "--format", "json"]
    if not req.startswith("cmd=") or "'" in req or "\"" in req:
        return None
    for item in req.split("&"):
        key, _, value = item.partition("=")
        if key == "cmd":
            if value != "occupancy":
                return None
            continue
        if key in ("curves", "") or not value:
            return None
        if key == "non-portable":  # a flag on the command line
            args += ["--non-portable"] if value == "yes" else []
            continue
        args += ["--" + key, value]
    return args


def cli(gpulint, source, args):
    env = dict(os.environ, GPULINT_MODELS=os.path.join(source, "models"), GPULINT_NO_DEVICE="1",
               NO_COLOR="1")
    p = subprocess.run([gpulint] + args, capture_output=True, text=True, env=env)
    return p


def recorded(source, ident, explain):
    """exercises/answers/<id>[.explain].txt: "exit: N" then what the command printed."""
    path = os.path.join(source, "exercises", "answers",
                        f"{ident}{'.explain' if explain else ''}.txt")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        head, _, body = f.read().partition("\n")
    return int(head.split()[1]), body


def check_exercises(runner, source):
    """Every exercise the page answers: its text is the recorded answer of
    `gpulint exercises` (exercises/answers), with and without the steps."""
    listing = json.loads(run_lines(runner, ["cmd=exercises"])[0])["exercises"]
    reqs = []
    for x in listing:
        for explain in (False, True):
            reqs.append((x, explain, f"cmd=exercise&id={x['id']}" + ("&explain=yes" if explain else "")))
    answers = run_lines(runner, [r for _, _, r in reqs])
    in_page = compared = bad = 0
    for (x, explain, req), line in zip(reqs, answers):
        ans = json.loads(line)["answer"]
        if not x["in_page"]:
            if "error" not in ans:
                bad += 1
                print(f"FAIL exercise {x['id']}: not in the page, yet answered")
            continue
        in_page += not explain
        want = recorded(source, x["id"], explain)
        if want is None:
            continue
        compared += 1
        status, text = want
        got = ans.get("text") if status == 0 else ans.get("launch_error") or ans.get("error")
        if (status == 0 and got != text) or (status != 0 and not got):
            bad += 1
            print(f"FAIL exercise {x['id']}{' --explain' if explain else ''}: the page's answer "
                  f"differs from exercises/answers:\n  page {got!r:.300}\n  cli  {text!r:.300}")
    print(f"{'ok  ' if not bad else 'FAIL'} exercises: {in_page} of {len(listing)} answered in "
          f"the page, {compared} answers equal to the command line's recorded text"
          f" ({bad} differ)")
    return reqs, bad == 0 and compared > 0


COMMANDS = [
    "launch --problem 1000x1000",
    "launch --problem 1000x1000 --gpu a100-sxm4-80gb --explain",
    "launch --problem 4096 --regs 32 --smem 16K --gpu h100-sxm",
    "launch --problem 640x480x3 --block 32x8x1 --block 16x16 --arch sm_86 --elem 2",
    "launch --problem 2097152 --block 512 --gpu rtx-5060-ti --explain",
    "launch --problem 100x100 --regs 255 --block 1024 --arch sm_90",
    "launch --problem 1000x1000 --machine threads/sm=1024,regs/sm=32768,smem/sm=48K",
    "launch --problem 0x5",
    "launch --problem 64 --block 2048",
    "launch --problem 64 --elem 3",
    "launch",
    "roofline --peak 10T --bw 900G --ai 50,20,0.125 --label GEMM,Convolution,Element-wise",
    "roofline --peak 10T --bw 900G --flops 1G --bytes 4G --explain",
    "roofline --gpu h100-sxm --precision fp16-tensor,fp32,fp64 --explain",
    "roofline --gpu a100-sxm4-80gb --clock base --source computed --ai 4",
    "roofline --gpu v100-sxm2-16gb --precision fp16-tensor --ai 1,10,100",
    "roofline --gemm 4096,4096,4096 --tile 32x128 --gpu h100-sxm --explain",
    "roofline --gemm 1000,1000,500 --tile 64 --elem 2 --peak 100T --bw 2T",
    "roofline --gemm 4096,4096,4096 --tile 128 --thread-tile 8x4 --gpu a100-sxm4-80gb "
    "--precision fp32 --explain",
    "roofline --gemm 4096,4096,4096 --tile 64 --thread-tile 4 --peak 20T --bw 1T",
    "roofline --gemm 512,512,2048 --mma m16n8k16 --precision fp16-tensor --gpu a100-sxm4-80gb "
    "--measured 200T --explain",
    "roofline --gemm 100,100,100 --mma m16n8k8 --peak 300T --bw 3T --elem 4",
    "roofline --mix 0.7@3,0.2@1,0.1@1 --target-speedup 2 --explain",
    "roofline --mix 50%@2,50%@1 --target-speedup 9",
    "roofline --mix 0.5@2,0.7@1",
    "roofline --mix 0.5",
    "roofline --gpu h100-sxm --precision fp99",
    "roofline --gpu nope",
    "roofline --gpu h100-sxm --peak 1T --bw 1G",
    "roofline --mma m16n8k16",
    "roofline --gemm 10,10,10 --tile 0",
    "roofline --gemm 10,10 --tile 4",
    "roofline --gemm 64,64,64 --mma m16n8k16 --gpu h100-sxm --precision fp32",
    "roofline --ai 3",
    "occupancy --gpu h200 --threads 128 --regs 32 --cluster 1,4,16 --non-portable",
    "occupancy --gpu h200 --threads 1024 --regs 32 --cluster 3 --explain",
    "occupancy --arch sm_90 --threads 256 --regs 32 --cluster 2,4,8 --gpc-sms 10,10,6",
    "occupancy --arch sm_90 --threads 128 --cluster 2",
    "occupancy --gpu h200 --threads 128 --cluster 2,x",
    "occupancy --gpu h200 --threads 128 --non-portable",
    "roofline --target-speedup 2",
    "roofline --peak 1T --bw 1G --ai x",
    "roofline",
]


def check_commands(runner, gpulint, source):
    """Command lines the page's command tab runs: `gpulint`'s own text or
    message, byte for byte."""
    answers = run_lines(runner, ["$ " + c for c in COMMANDS])
    bad = 0
    for line, ans in zip(COMMANDS, answers):
        a = json.loads(ans)
        p = cli(gpulint, source, shlex.split(line))
        if p.returncode == 0:
            ok = a.get("text") == p.stdout
        else:
            ok = f"gpulint: error: {a.get('error')}" in p.stderr.splitlines()
        if not ok:
            bad += 1
            if bad <= 5:
                print(f"FAIL command {line!r}:\n  page {ans[:300]}\n  cli  rc={p.returncode} "
                      f"{p.stdout[:300]!r} {p.stderr.strip()[:300]}")
    print(f"{'ok  ' if not bad else 'FAIL'} launch, roofline and occupancy command lines against `gpulint`: "
          f"{len(COMMANDS)} lines, {bad} differ")
    return bad == 0


def check_roofs(runner, gpulint, source, models):
    """The viewer's roofs (cmd=roof) are `gpulint roofline --gpu ID --precision P`'s."""
    answers = run_lines(runner, [f"cmd=roof&gpu={p['id']}" for p in models["products"]])
    checked = bad = 0
    for p, line in zip(models["products"], answers):
        for c in json.loads(line)["ceilings"]:
            r = cli(gpulint, source, ["roofline", "--gpu", p["id"], "--precision", c["precision"],
                                      "--format", "json"])
            want = json.loads(r.stdout) if r.returncode == 0 else {}
            checked += 1
            # the command line's JSON may print 6 significant digits
            def near(a, b):
                return isinstance(a, (int, float)) and abs(a - b) <= 5e-6 * abs(b)
            if not near(want.get("peak_flops"), c["flops"]) or \
                    not near(want.get("peak_bandwidth"), c["bandwidth"]):
                bad += 1
                if bad <= 5:
                    print(f"FAIL roof {p['id']} {c['precision']}: page {c}, cli "
                          f"{want.get('peak_flops')} {want.get('peak_bandwidth')} {r.stderr[:200]}")
    print(f"{'ok  ' if not bad and checked else 'FAIL'} the viewer's roofline ceilings against "
          f"`gpulint roofline --gpu`: {checked} GPU and precision pairs, {bad} differ")
    return bad == 0 and checked > 0


def main():
    build, source = sys.argv[1], sys.argv[2]
    wasm = os.path.join(build, "src", "web", "gpulint.wasm")
    native = os.path.join(build, "src", "web", "gpulint-web-native")
    gpulint = os.path.join(build, "src", "gpulint")
    node = shutil.which("node")
    if not os.path.exists(wasm) or not node:
        print("skipped: gpulint.wasm not built (meson -Dweb needs clang-22, lld-22, wasi-libc) "
              "or node missing")
        return 77
    runner = [node, os.path.join(source, "tests", "web", "run_wasm.mjs"), wasm]
    failures = 0

    sample = sweep_sample(build)
    if sample:
        got = run_lines(runner, [r for r, _ in sample])
        bad = [(r, b, g) for (r, b), g in zip(sample, got)
               if json.loads(g).get("blocks_per_sm") != b]
        for r, b, g in bad[:5]:
            print(f"FAIL sweep {r}: cuda_occupancy.h {b} blocks, wasm {g[:200]}")
        print(f"{'ok  ' if not bad else 'FAIL'} cuda_occupancy.h sample: {len(sample)} cases, "
              f"{len(bad)} differ from the header")
        failures += bool(bad) + (len(sample) < 1000)
    else:
        print("skip cuda_occupancy.h sample: tests/unit/test_occ_nvidia was not built "
              "(no cuda_occupancy.h)")

    models = json.loads(run_lines(runner, ["cmd=models"])[0])
    ex_reqs, ex_ok = check_exercises(runner, source)
    failures += not ex_ok
    failures += not check_roofs(runner, gpulint, source, models)
    failures += not check_commands(runner, gpulint, source)
    reqs = request_set(models) + ["$ " + c for c in COMMANDS]
    n_form = len(reqs)
    reqs += ["cmd=exercises"] + [r for _, _, r in ex_reqs]
    w = run_lines(runner, reqs)
    n = run_lines([native], reqs)
    diff = [i for i, (a, b) in enumerate(zip(w, n)) if a != b] + \
        ([-1] if len(w) != len(n) or len(w) != len(reqs) else [])
    for i in diff[:5]:
        print(f"FAIL wasm != native for {reqs[i]!r}")
    print(f"{'ok  ' if not diff else 'FAIL'} wasm and native: {len(reqs)} requests, "
          f"{sum(len(x) for x in w)} bytes of answers, {len(diff)} differ")
    failures += bool(diff)

    checked = mism = 0
    for i, req in enumerate(reqs):
        if i >= n_form or (i % 3 and "error" not in w[i]):
            continue  # every third answer and every refusal
        args = cli_args(req)
        if args is None:
            continue
        ans, p = json.loads(w[i]), cli(gpulint, source, args)
        checked += 1
        if "error" in ans:
            want = f"gpulint: error: {ans['error']}"
            ok = p.returncode != 0 and want in p.stderr.splitlines()
        elif ans.get("reason"):
            ok = p.returncode != 0 and f"gpulint: error: {ans['launch_error']}" in p.stderr
            if not ok and p.stdout.strip():
                c = json.loads(p.stdout)
                ok = same_fields(c, ans, CONTRACT + ["reason"])
        else:
            # a refused cluster shape still prints its answer (exit 8)
            c = json.loads(p.stdout) if p.returncode in (0, 8) and p.stdout.strip() else {}
            ok = same_fields(c, ans, CONTRACT + (["clusters"] if "clusters" in ans else []))
        if not ok:
            mism += 1
            if mism <= 5:
                print(f"FAIL cli differs for {req!r}:\n  wasm {w[i][:300]}\n  cli  rc={p.returncode} "
                      f"{p.stdout[:300]} {p.stderr.strip()[:300]}")
    print(f"{'ok  ' if not mism else 'FAIL'} against `gpulint occupancy --format json`: "
          f"{checked} requests, {mism} differ")
    failures += bool(mism)

    print(f"{6 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
