#!/bin/sh
# coldpartial.sh: on the GPU machine, coldpartial.cu timed by cudaEvent
# (run.txt), then under Nsight Compute at the card's own clocks with L2
# flushed before each launch (ncu.csv, the truth set's setting) and not
# flushed (ncu_warm.csv): time, DRAM bytes each way, L2 write sectors and
# requests, L1 store sectors. The card in env.txt, the SASS in
# coldpartial.sass.
#
#   OUT=DIR sh scripts/timeprobe/coldpartial.sh
set -u
cd "$(dirname "$0")"
: "${OUT:?set OUT}"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.memory,ecc.mode.current \
    --format=csv > "$OUT/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/coldpartial coldpartial.cu > "$OUT/build.log" 2>&1 || exit 1
cuobjdump -sass /tmp/coldpartial > "$OUT/coldpartial.sass" 2>&1
/tmp/coldpartial > "$OUT/run.txt" 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
ncu --clock-control none --metrics "$M" --csv /tmp/coldpartial > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
ncu --clock-control none --cache-control none --metrics "$M" --csv /tmp/coldpartial \
    > "$OUT/ncu_warm.csv" 2> "$OUT/ncu_warm.err"
