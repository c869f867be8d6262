#!/usr/bin/env python3
"""gpulint's L2 figure for launches that gather through an index read from
memory, against lulesh's Nsight Compute recording
(tests/data/hecbench/l2-lulesh, an H100):

- the write sectors, every store sector (L1 writes stores through), within
  15% of lts__t_sectors_srcunit_tex_op_write (fb's L1 merges a tenth of
  its store sectors before L2);
- the read sectors at most the L1 load sectors measured (the rule's upper
  end), the estimate printed beside the measurement (the gathered nodes
  placed as if they stepped one element from lane to lane give 37-50%
  fewer than L2 serves in four of the five: a block's nodes are
  neighbours in three dimensions, not along one row), and the compulsory
  read sectors, a lower bound, at most what L2 served. (DRAM's reads are
  no lower end here: L2 fills the sectors hgc stores in part from DRAM.)

usage: l2_gather.py GPULINT REPO_ROOT. Ends with "N passed, N failed";
exit 77 without nvcc."""
import csv
import io
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, skip_without_nvcc  # noqa: E402

GPULINT, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
SRC = os.path.join(ROOT, "tests", "data", "hecbench", "src", "lulesh")
DATA = os.path.join(ROOT, "tests", "data", "hecbench", "l2-lulesh", "lulesh-l2.csv")
check = Checks()


def measured():
    text = open(DATA).read().splitlines()
    head = next(i for i, line in enumerate(text) if line.startswith('"ID"'))
    out = {}
    for row in csv.DictReader(io.StringIO("\n".join(text[head:]))):
        name = re.sub(r"\(.*", "", row["Kernel Name"])
        out.setdefault(name, {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
    return out


skip_without_nvcc()
files = ["lulesh.cu", "lulesh-viz.cu", "lulesh-util.cu", "lulesh-init.cu"]
r = subprocess.run([GPULINT, *files, "--gpu", "h100-sxm", "--format", "json", "-j", "2",
                    "--run-args", "-i 2 -s 128 -r 11 -b 1 -c 1", "--", "-std=c++17",
                    "-arch=sm_90", "-O3"], cwd=SRC, capture_output=True, text=True, timeout=600,
                   env=dict(os.environ, GPULINT_NO_DEVICE="1"))
check(r.returncode == 0, "gpulint runs on lulesh", r.stderr[-400:])
rows = {}
if r.returncode == 0:
    for row in json.loads(r.stdout)["roofline"]:
        rows.setdefault(row["kernel"], row)
want = measured()
check(len(want) == 5, "five kernels recorded", str(sorted(want)))
for kernel, m in sorted(want.items()):
    l2 = (rows.get(kernel) or {}).get("l2_bytes") or {}
    w, rd = l2.get("write_sectors"), l2.get("read_sectors")
    mw = m["lts__t_sectors_srcunit_tex_op_write.sum"]
    mr = m["lts__t_sectors_srcunit_tex_op_read.sum"]
    check(w is not None and abs(w - mw) <= 0.15 * mw,
          f"{kernel}: L2 write sectors {w} against {mw:g} measured")
    l1 = m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
    floor = ((rows.get(kernel) or {}).get("dram_compulsory_bytes") or {}).get("read_sectors")
    check(rd is not None and rd <= l1,
          f"{kernel}: L2 read sectors {rd}, at most L1's {l1:g} "
          f"(L2 measured {mr:g}: {(rd or 0) / mr - 1:+.0%})")
    check(floor is not None and floor <= mr,
          f"{kernel}: the compulsory read sectors {floor}, at most L2's {mr:g}")
check.finish()
