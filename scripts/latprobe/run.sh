#!/bin/sh
# On the GPU machine: build the latency probe, run it, keep its SASS (to
# check that each chain sits between its clock reads). OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")"
R=$OUT/latprobe; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
python3 latgen.py
nvcc -O3 -arch=sm_90 -o /tmp/latprobe latprobe.cu > $R/build.log 2>&1
/tmp/latprobe > $R/run.txt 2>&1
/tmp/latprobe > $R/run2.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/chainprobe chainprobe.cu >> $R/build.log 2>&1
/tmp/chainprobe > $R/chain.txt 2>&1
ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,smsp__inst_executed.sum --csv /tmp/chainprobe > $R/chain-ncu.csv 2> $R/chain-ncu.err
cuobjdump -sass /tmp/chainprobe > $R/chain-sass.txt 2>&1
cuobjdump -sass /tmp/latprobe > $R/sass.txt 2>&1
gzip -9 $R/sass.txt
