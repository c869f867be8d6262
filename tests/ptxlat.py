#!/usr/bin/env python3
"""ptxlat: the latency of one PTX instruction, as
src/analysis/timing/ptxlat.c has it, against the H200 recording of
scripts/latprobe (tests/data/latprobe/h200/run.txt: per probe, the SM
clocks of K = 16 and K = 48 dependent copies and their difference over 32).

1. Every row of the table is its probe's measurement, rounded (both
   probes of a 64-bit division, below and above 2^32, where there are two;
   within a clock of each other).
2. Every single-instruction probe has its row, unless ptxas folds its
   chain (named below with why).
3. The constants for what the probe measured as a sequence or a pointer
   chase are the recording's: a compare and a select, a float-int round
   trip, a shared load, a load L1 holds.
4. The instructions with a slow-path branch are those whose recorded SASS
   holds one.

usage: ptxlat.py REPO_ROOT. Ends with "N passed, N failed"."""
import os
import re
import sys

ROOT = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts", "latprobe"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from latgen import MORE, OPS  # noqa: E402
from checks import Checks  # noqa: E402

# Probes whose chain ptxas shortens, so they measure part of an instruction.
FOLDS = {"add_u32": "two additions a three-input IADD3",
         "add_s64": "two additions an IADD3 and IADD3.X pair",
         "min_s32": "two minimums a three-input VIMNMX3"}
check = Checks()

measured = {}
for line in open(os.path.join(ROOT, "tests", "data", "latprobe", "h200", "run.txt")):
    f = line.split()
    if len(f) == 4:
        measured[f[0]] = float(f[3])
check(len(measured) > 40, f"{len(measured)} probes recorded")

src = open(os.path.join(ROOT, "src", "analysis", "timing", "ptxlat.c")).read()
rows = {op: float(v) for op, v in
        re.findall(r'\{"([a-z0-9.]+)",\s*([0-9.]+)\}', src[:src.index("branches[] = {")])}
check(len(rows) > 30, f"{len(rows)} rows in ptxlat.c")
ptx_of = {name: ptx for name, ptx, *_ in OPS + MORE}
for op, v in sorted(rows.items()):
    probes = {n: measured.get(n) for n, p in ptx_of.items() if p == op}
    ok = bool(probes) and all(m is not None and abs(m - v) <= 1 for m in probes.values())
    check(ok, f"{op}: table {v:g}, measured "
          f"{', '.join(f'{n} {m}' for n, m in probes.items()) or 'none'}")
for name, ptx in ptx_of.items():
    if name in measured and name not in FOLDS:
        check(ptx in rows, f"{name} ({ptx}, {measured[name]:g} clocks) has its row")

consts = dict(re.findall(r"(SETP|CVT_FLOAT|LD_SHARED|LD_L1) = (\d+)", src))
check(abs(2 * int(consts.get("SETP", 0)) - measured["setp_selp_f32"]) <= 1,
      f"setp and selp {consts.get('SETP')} each, the pair {measured['setp_selp_f32']}")
check(abs(2 * int(consts.get("CVT_FLOAT", 0)) - measured["cvt_pair"]) <= 1,
      f"a conversion {consts.get('CVT_FLOAT')}, the round trip {measured['cvt_pair']}")
check(abs(int(consts.get("LD_SHARED", 0)) - measured["ld_shared"]) <= 1,
      f"ld.shared {consts.get('LD_SHARED')}, measured {measured['ld_shared']}")
check(abs(int(consts.get("LD_L1", 0)) - measured["ld_global_l1"]) <= 1,
      f"a load L1 holds {consts.get('LD_L1')}, measured {measured['ld_global_l1']}")

# 4. The slow-path branches: exactly the probes whose SASS (the probe's
#    K = 16 kernel) holds a BRA or CALL besides the one every kernel ends
#    with; those without one have no entry.
import gzip  # noqa: E402
sass = gzip.open(os.path.join(ROOT, "tests", "data", "latprobe", "h200", "sass.txt.gz"), "rt").read()
branch_rows = dict(re.findall(r'\{"([a-z0-9.]+)",\s*([0-9.]+)\}',
                              src[src.index("branches[] = {"):]))
for name, ptx in ptx_of.items():
    m = re.search(r"Function : _Z\d+l_16_" + name + r"P(.*?)(?=\n\s*Function :|\Z)", sass, re.S)
    if not m or name in FOLDS:
        continue
    jumps = len(re.findall(r"\s(BRA|CALL)[\s.]", m.group(1)))
    check((jumps > 1) == (ptx in branch_rows),
          f"{name}: {jumps} branches in its SASS, {'a' if ptx in branch_rows else 'no'} slow-path entry")
check.finish()
