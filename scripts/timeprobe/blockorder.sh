#!/bin/sh
# On the GPU machine: gemmorder.cu (when each block of three reference
# GEMMs runs, and gemm_naive's DRAM bytes at 6 and 4 blocks an SM).
# OUT=DIR sh blockorder.sh; results in $OUT/blockorder.tar.gz
# (tests/data/timeprobe/h200/blockorder)
set -u
cd "$(dirname "$0")"
export R=/tmp/blockorder; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/env.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/gemmorder gemmorder.cu > $R/build.log 2>&1 || exit 1
/tmp/gemmorder > $R/run.txt 2>&1
G=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,sm__warps_active.avg.pct_of_peak_sustained_active
ncu --kernel-name gemm_naive --metrics $G --csv /tmp/gemmorder > $R/naive_ncu.csv 2> $R/naive_ncu.err
cd /tmp && tar czf $OUT/blockorder.tar.gz blockorder
echo "l2probe2: done"
