#!/bin/sh
# chaseprobe.sh: on the GPU machine, chaseprobe.cu under Nsight Compute at
# the card's own clocks ($OUT/ncu.csv: time, clock, DRAM bytes, load
# requests and sectors, warp instructions), its SASS (chaseprobe.sass)
# and the card (env.txt).
#
#   OUT=DIR sh scripts/timeprobe/chaseprobe.sh
set -u
cd "$(dirname "$0")"
: "${OUT:?set OUT}"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.memory --format=csv \
    > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/chaseprobe chaseprobe.cu > "$OUT/build.log" 2>&1 || exit 1
cuobjdump -sass /tmp/chaseprobe > "$OUT/chaseprobe.sass" 2>&1
/tmp/chaseprobe > "$OUT/run.txt" 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
ncu --clock-control none --metrics "$M" --csv /tmp/chaseprobe > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
