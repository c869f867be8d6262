#!/bin/sh
# On the GPU machine: build the probe, count each kernel's executed warp
# instructions under Nsight Compute, keep the SASS. OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")"
R=$OUT/ptxprobe; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
ncu --version >> $R/env.txt
python3 gen.py
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/ptxprobe ptxprobe.cu > $R/build.log 2>&1
/tmp/ptxprobe > $R/run.txt 2>&1
ncu --metrics smsp__inst_executed.sum --csv /tmp/ptxprobe > $R/ncu.csv 2> $R/ncu.err
cuobjdump -sass /tmp/ptxprobe > $R/sass.txt 2>&1
gzip -9 $R/sass.txt
