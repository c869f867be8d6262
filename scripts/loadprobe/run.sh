#!/bin/sh
# On the GPU machine: the global load and store requests of the golden
# kernels of tests/data/cli/cu/loads-compiled.cu under Nsight Compute, and
# their SASS. OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")/../../tests/data/cli/cu"
R=$OUT/loadprobe; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
nvcc -O3 -arch=sm_90 -o /tmp/loads loads-compiled.cu > $R/build.log 2>&1
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,launch__grid_size,launch__block_size
ncu --metrics $M --csv /tmp/loads > $R/ncu.csv 2> $R/ncu.err
cuobjdump -sass /tmp/loads > $R/loads.sass 2>&1
