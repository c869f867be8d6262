#!/bin/sh
# On the GPU machine: build f64lit2.cu for sm_90, keep its SASS and PTX and
# each launch's executed warp instructions. OUT=DIR sh f64lit2.sh
set -u
cd "$(dirname "$0")"
R=$OUT/f64lit2; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/f64lit2 f64lit2.cu > $R/build.log 2>&1
nvcc -O3 -arch=sm_90 -ptx -o $R/f64lit2.ptx f64lit2.cu >> $R/build.log 2>&1
cuobjdump -sass /tmp/f64lit2 > $R/sass_sm90.txt 2>&1
/tmp/f64lit2 > $R/run.txt 2>&1
ncu --metrics smsp__inst_executed.sum --csv /tmp/f64lit2 > $R/ncu.csv 2> $R/ncu.err
