#!/bin/sh
# On the GPU machine: CUTLASS 3's Hopper warp-specialised GEMM (example 48,
# NVIDIA/cutlass at .cutlass/COMMIT, BSD-3-Clause) under Nsight Compute:
# its theoretical occupancy, cluster launch and the runtime's cluster
# figures, to judge gpulint's predictions for the same kernel. The headers
# come in .cutlass/ (git-ignored, carried: scripts/hopperprobe/fetch.sh).
# OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")/../.."
R=$OUT/hopperprobe; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
cp .cutlass/COMMIT $R/cutlass-commit.txt
C=.cutlass
( time nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    -I $C/include -I $C/tools/util/include -I $C/examples/common --expt-relaxed-constexpr \
    -o /tmp/ex48 $C/examples/48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm.cu ) \
    > $R/build.log 2>&1
/tmp/ex48 > $R/run.txt 2>&1
ncu --kernel-name regex:device_kernel --launch-count 1 \
    --section LaunchStats --section Occupancy --csv /tmp/ex48 > $R/ncu.csv 2> $R/ncu.err
ncu --kernel-name regex:device_kernel --launch-count 1 \
    --metrics smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,gpu__time_duration.sum,dram__bytes_read.sum \
    --csv /tmp/ex48 > $R/ncu-metrics.csv 2>> $R/ncu.err
