#!/bin/sh
# On the GPU machine: which setmaxnreg raises a block is granted
# (maxnregprobe.cu). OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")"
R=$OUT/maxnregprobe; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
nvcc -O3 -gencode arch=compute_90a,code=sm_90a -Xptxas -v -o /tmp/maxnregprobe maxnregprobe.cu > $R/build.log 2>&1
/tmp/maxnregprobe > $R/maxnregprobe.csv 2> $R/run.err
