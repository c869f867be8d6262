#!/usr/bin/env python3
"""ncu_contention: the launches of kernels/smem_contention.cu side by side:
shared-memory wavefronts per instruction from the hardware counter and from
the SASS-patched counter, with the L1 hit rate of the global loads in flight.

usage: ncu_contention.py kernel-smem_contention.csv

Every shared access of that program is a conflict-free 32-bit warp access,
so the bank model (and the SASS counter, computed from addresses) says 1.000
wavefront per instruction. A hardware figure above that is data-stage time
the access pattern did not cause."""
import csv
import sys

NAMES = ["sts_alone_1block", "sts_alone_full", "lds_alone_full", "sts_loads_1block_miss",
         "sts_loads_full_miss", "sts_loads_full_hit", "lds_loads_1block_miss",
         "lds_loads_full_miss", "lds_loads_full_hit", "sts_loadscg_full_miss"]  # launch order in main()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ncu_contention.py kernel-smem_contention.csv")
    with open(sys.argv[1]) as f:
        rows = list(csv.reader(l for l in f if l.startswith('"')))
    head = rows[0]
    ii, mi, vi = (head.index(c) for c in ("ID", "Metric Name", "Metric Value"))
    launches = {}
    for r in rows[1:]:
        v = r[vi].replace(",", "")
        launches.setdefault(int(r[ii]), {})[r[mi]] = float(v) if v not in ("", "n/a") else None
    print(f"{'launch':24} {'op':2} {'instructions':>12} {'hw wf/inst':>10} {'sass wf/inst':>12} "
          f"{'hw surplus':>10} {'L1 hit':>7}")
    for i in sorted(launches):
        m = launches[i]
        op = "st" if "sts" in NAMES[i] else "ld"
        inst = m[f"smsp__inst_executed_op_shared_{op}.sum"]
        hw = m[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]
        sass = m[f"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]
        hit = m.get("l1tex__t_sector_hit_rate.pct")
        hit_s = "-" if m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0) == 0 else f"{hit:.1f}%"
        print(f"{NAMES[i]:24} {op:2} {inst:12.0f} {hw / inst:10.4f} {sass / inst:12.4f} "
              f"{100 * (hw - sass) / sass:9.2f}% {hit_s:>7}")


if __name__ == "__main__":
    main()
