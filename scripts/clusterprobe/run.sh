#!/bin/sh
# On the GPU machine: the runtime's cluster occupancy and measured
# co-residency (clusterprobe.cu). OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")"
R=$OUT/clusterprobe; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/clusterprobe clusterprobe.cu > $R/build.log 2>&1
/tmp/clusterprobe > $R/clusterprobe.csv 2> $R/run.err
gzip -9 $R/clusterprobe.csv
