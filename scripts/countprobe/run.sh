#!/bin/sh
# On the GPU machine: the count fixtures of tests/data/cusrc that stand for
# a rule (triangular loops, CUB block collectives on integer items, a grid
# sized from cudaDeviceProp, asynchronous copies) under Nsight Compute, to
# judge gpulint's FLOPs, warp instructions, requests and grids for them.
# OUT=DIR sh run.sh  ->  DIR/countprobe/{env.txt,<name>.csv}
set -u
cd "$(dirname "$0")/../.."
R=$OUT/countprobe; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__grid_size,launch__block_size
M=$M,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
M=$M,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
for n in triangle cub_collectives device_props async_copy; do
    nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o /tmp/$n tests/data/cusrc/$n.cu >> $R/env.txt 2>&1
    ncu --metrics $M --csv /tmp/$n > $R/$n.csv 2>> $R/env.txt
done
