#!/bin/sh
# On the GPU machine: waveprobe.cu (what a wave of short blocks costs), by
# CUDA events and under Nsight Compute. OUT=DIR sh waveprobe.sh; results
# in $OUT/wave.tar.gz (tests/data/timeprobe/h200/wave)
set -u
cd "$(dirname "$0")"
R=/tmp/wave; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/env.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/waveprobe waveprobe.cu > $R/build.log 2>&1 || exit 1
/tmp/waveprobe > $R/run.txt 2>&1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,sm__ctas_launched.sum
ncu --clock-control none --metrics $M --csv /tmp/waveprobe > $R/ncu.csv 2> $R/ncu.err
cd /tmp && tar czf $OUT/wave.tar.gz wave
echo "waveprobe: done"
