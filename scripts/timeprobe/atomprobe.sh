#!/bin/sh
# On the GPU machine: atomprobe.cu (global atomics at L2), by CUDA events at
# the card's own clocks and under Nsight Compute (the sectors it counts as
# atomics, what L2 and DRAM serve). OUT=DIR sh atomprobe.sh; results in
# $OUT/atom (tests/data/timeprobe/h200/atom)
set -u
cd "$(dirname "$0")"
R=$OUT/atom; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/env.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/atomprobe atomprobe.cu > $R/build.log 2>&1 || exit 1
/tmp/atomprobe > $R/run.txt 2>&1
cuobjdump -sass /tmp/atomprobe > $R/atomprobe.sass 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,smsp__inst_executed.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
M=$M,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_red.sum
M=$M,dram__bytes_read.sum,dram__bytes_write.sum
ncu --clock-control none --metrics $M --csv /tmp/atomprobe > $R/ncu.csv 2> $R/ncu.err
echo "atomprobe: done"
