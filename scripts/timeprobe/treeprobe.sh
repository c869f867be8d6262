#!/bin/sh
# treeprobe.sh: on the GPU machine, treeprobe.cu by its own timers
# ($OUT/run.txt) and under Nsight Compute ($OUT/ncu.csv: where the tree's
# loads hit, L2 sectors, time and clock), plus the card (env.txt).
#
#   OUT=DIR sh scripts/timeprobe/treeprobe.sh
set -u
cd "$(dirname "$0")"
: "${OUT:?set OUT}"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.memory --format=csv \
    > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/treeprobe treeprobe.cu > "$OUT/build.log" 2>&1 || exit 1
/tmp/treeprobe > "$OUT/run.txt" 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
ncu --metrics "$M" --csv /tmp/treeprobe > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
