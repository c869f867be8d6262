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
cuobjdump -sass /tmp/latprobe > $R/sass.txt 2>&1
gzip -9 $R/sass.txt
