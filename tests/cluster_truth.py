#!/usr/bin/env python3
"""cluster_truth: `gpulint occupancy --cluster` against what two H200s and an
H100 answered and did (tests/data/clusterprobe: GPU-4ad5edc5, h200-dd4d09fc/:
GPU-dd4d09fc, h100-345a98fd/: GPU-345a98fd, each card judged with its own
bundled model; recorded by scripts/clusterprobe/run.sh). Each recording:

1. Every configuration of the recorded sweep (two kernels, ten block sizes,
   twelve dynamic shared memory sizes, cluster sizes 1 to 16, with and
   without the non-portable opt-in; 7,680 in all): gpulint's blocks per SM
   equals cudaOccupancyMaxActiveBlocksPerMultiprocessor, its resident
   clusters equal cudaOccupancyMaxActiveClusters, and where the runtime
   refused (cudaErrorInvalidClusterSize) gpulint refuses with the same
   error. Counted per configuration, one check per kernel, block and
   shared memory.
2. cudaOccupancyMaxPotentialClusterSize (480 answers) equals gpulint's
   largest cluster, portable or with the opt-in as the probe set it.
3. The 15 co-residency launches: the most clusters whose blocks were all
   running at one instant (from each block's %globaltimer at start and
   end) equals gpulint's resident clusters.

usage: cluster_truth.py GPULINT SOURCE_ROOT. Ends with "N passed, N failed"."""
import collections
import gzip
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

GPULINT, ROOT = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import Checks  # noqa: E402

PROBE = os.path.join(ROOT, "tests", "data", "clusterprobe")
RECORDS = {"GPU-4ad5edc5": (os.path.join(PROBE, "clusterprobe.csv.gz"), "h200"),
           "GPU-dd4d09fc": (os.path.join(PROBE, "h200-dd4d09fc", "clusterprobe.csv.gz"), "h200"),
           "GPU-345a98fd": (os.path.join(PROBE, "h100-345a98fd", "clusterprobe.csv.gz"),
                            "h100-sxm")}
REGS = {"resident": 14}  # build.log: the co-residency kernel's registers
SIZES = list(range(1, 17))
check = Checks()

def ask(gpu, optin_room, regs, static, block, dynamic, nonportable, sizes):
    """gpulint's answer for one kernel and launch, each cluster size."""
    cmd = [GPULINT, "occupancy", "--gpu", gpu, "--threads", str(block), "--regs", str(regs),
           "--smem", str(static), "--dynamic-smem", str(dynamic), "--max-dynamic-smem",
           str(optin_room - static), "--cluster", ",".join(map(str, sizes)), "--format", "json"]
    if nonportable:
        cmd.append("--non-portable")
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    if r.returncode not in (0, 8):
        return None, r.stderr.strip()
    return json.loads(r.stdout), None


def launches(rows):
    """The sweep's answers by kernel and launch, and the potential sizes."""
    groups = collections.defaultdict(dict)
    for r in rows:
        if r[0] == "occ":
            key = (r[1], int(r[2]), int(r[3]), r[4] == "1", int(r[5]), int(r[6]))
            groups[key][int(r[7])] = (r[8], int(r[9]), r[10], int(r[11]))
    potential = {(r[1], r[2] == "1", int(r[3]), int(r[4])): int(r[7])
                 for r in rows if r[0] == "potential" and r[6] == "ok"}
    return groups, potential


def judge_group(card, gpu, optin_room, potential, item):
    (kernel, regs, static, np_, block, dyn), per_c = item
    out, err = ask(gpu, optin_room, regs, static, block, dyn, np_, SIZES)
    label = f"{card}: {kernel} {regs} regs, block {block}, dynamic {dyn} B, " + \
        ("opt-in" if np_ else "portable")
    if out is None:
        return [(False, label, err)]
    bad = []
    for c, ans in zip(SIZES, out["clusters"]):
        status, clusters, bstatus, per_sm = per_c[c]
        if bstatus == "ok" and out["blocks_per_sm"] != per_sm:
            bad.append(f"blocks/SM {out['blocks_per_sm']} vs runtime {per_sm}")
        if status == "ok" and ans.get("active_clusters") != clusters:
            bad.append(f"size {c}: {ans.get('active_clusters')} clusters vs runtime {clusters}")
        if status != "ok" and not (ans["error"] or "").startswith(status):
            bad.append(f"size {c}: gpulint says {ans['error']!r}, runtime {status}")
        if c == 1 and (kernel, np_, block, dyn) in potential:
            want = potential[(kernel, np_, block, dyn)]
            got = ans.get("largest_nonportable" if np_ else "largest_portable")
            if got != want:
                bad.append(f"largest cluster {got} vs runtime {want}")
    return [(not bad, f"{label}: 16 sizes", "; ".join(bad))]


def coresident(records, size):
    """Most clusters with every block running at one instant."""
    blocks = collections.defaultdict(list)
    for b, _sm, _cid, t0, t1 in records:
        blocks[b // size].append((t0, t1))
    events = []
    for spans in blocks.values():
        start, end = max(s for s, _ in spans), min(e for _, e in spans)
        if start < end:
            events += [(start, 1), (end, -1)]
    most = now = 0
    for _, step in sorted(events, key=lambda e: (e[0], e[1])):
        now += step
        most = max(most, now)
    return most


def judge_record(card, path, gpu):
    rows = [line.rstrip("\n").split(",") for line in gzip.open(path, "rt")]
    optin_room = int(next(r for r in rows if r[0] == "device")[5])  # sharedMemPerBlockOptin
    groups, potential = launches(rows)
    chosen = sorted(groups.items())
    if os.environ.get("GPULINT_SWEEP") == "quick":
        # The sanitizer stage: every fourth launch (the plain build judges
        # all of them); each is a gpulint run, three times slower there.
        chosen = chosen[::4]
        print(f"# GPULINT_SWEEP=quick: {len(chosen)} of {len(groups)} launches")
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = list(pool.map(lambda item: judge_group(card, gpu, optin_room, potential, item),
                                chosen))
    configs = sum(len(v) for v in groups.values())
    failed_groups = 0
    for res in results:
        for ok, what, detail in res:
            failed_groups += not ok
            check(ok, what, detail)
    print(f"# {card}: {configs} configurations in {len(groups)} launches, "
          f"{len(potential)} potential-size answers; {failed_groups} launches differ")
    res = collections.defaultdict(list)
    heads = []
    for r in rows:
        if r[0] == "res_head":
            heads.append(r)
        elif r[0] == "res":
            res[(int(r[1]), int(r[2]), int(r[3]))].append(tuple(int(x) for x in r[4:9]))
    for h in heads:
        size, block, dyn = int(h[1]), int(h[2]), int(h[3])
        measured = coresident(res[(size, block, dyn)], size)
        out, err = ask(gpu, optin_room, REGS["resident"], 0, block, dyn, True, [size])
        got = out["clusters"][0].get("active_clusters") if out else err
        check(got == measured and measured > 0,
              f"{card}: co-residency, clusters of {size}, block {block}, dynamic {dyn} B: "
              f"measured {measured}, gpulint {got} (runtime {h[7]})")


for card_id, (record, gpu) in RECORDS.items():
    judge_record(card_id, record, gpu)
check.finish()
