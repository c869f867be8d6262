#!/bin/sh
# On the GPU machine: launchprobe.cu, mlpprobe.cu and dispatchprobe.cu under Nsight Compute
# at the clocks it locks, with the card's identity. OUT=DIR sh card-more.sh
set -u
cd "$(dirname "$0")"
R=$OUT/more; mkdir -p "$R"
nvidia-smi --query-gpu=name,serial,uuid,driver_version,power.limit,clocks.max.sm,clocks.max.mem --format=csv > "$R/env.txt" 2>&1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.avg.per_second,lts__t_sectors_op_write.sum
for p in launchprobe mlpprobe dispatchprobe; do
  nvcc -O3 -arch=sm_90 -o /tmp/$p $p.cu >> "$R/build.log" 2>&1 &&
    ncu --metrics $M --csv /tmp/$p > "$R/$p.csv" 2> "$R/$p.err"
done
