#!/bin/sh
# On the GPU machine: build f64lit.cu, keep each architecture's SASS and
# count each launch's executed warp instructions under Nsight Compute
# (sm_90). OUT=DIR sh f64lit.sh
set -u
cd "$(dirname "$0")"
R=$OUT/f64lit; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
ncu --version >> $R/env.txt
for a in 80 86 89 90 100 120; do
  nvcc -O3 -arch=sm_$a -cubin -o /tmp/f64lit_$a.cubin f64lit.cu >> $R/build.log 2>&1
  cuobjdump -sass /tmp/f64lit_$a.cubin > $R/sass_sm$a.txt 2>&1
done
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/f64lit f64lit.cu >> $R/build.log 2>&1
/tmp/f64lit > $R/run.txt 2>&1
ncu --metrics smsp__inst_executed.sum --csv /tmp/f64lit > $R/ncu.csv 2> $R/ncu.err
