#!/bin/bash
# On the GPU machine: the local-memory probe under Nsight Compute; writes
# $OUT/localprobe.csv (one row a launch and metric) and $OUT/localprobe-env.txt.
set -eu
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > "$OUT/localprobe-env.txt"
nvcc -arch=sm_90 -O3 -Xptxas -v -o /tmp/localprobe localprobe.cu 2>> "$OUT/localprobe-env.txt"
ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__registers_per_thread --csv /tmp/localprobe > "$OUT/localprobe.csv"
