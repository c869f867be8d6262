#!/bin/sh
# On the GPU machine: CUTLASS 3 / CuTe Hopper kernels (NVIDIA/cutlass at
# .cutlass/COMMIT, BSD-3-Clause) under Nsight Compute: each example's
# device_kernel launches with their theoretical occupancy, cluster launch
# and the runtime's cluster figures, to judge gpulint's predictions for
# the same kernels (tests/hopper_truth.py). The headers and the examples
# come in .cutlass/ (git-ignored, carried; scripts/hopperprobe/fetch.sh
# makes it from a clone of NVIDIA/cutlass).
# OUT=DIR sh run.sh [EXAMPLE ...]   (default: every example below)
# HOPPERPROBE_STAGES: "build run" by default; "build" alone lets another
# GPU job run while the examples compile.
set -u
cd "$(dirname "$0")/../.."
R=$OUT/hopperprobe
mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
cp .cutlass/COMMIT $R/cutlass-commit.txt
C=.cutlass
# Binaries in a git-ignored build folder, kept between calls on a warm
# machine: an example already built is not built again.
B=build-hopperprobe
mkdir -p $B
EXAMPLES=${*:-"48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm
49_hopper_gemm_with_collective_builder/49_collective_builder
50_hopper_gemm_with_epilogue_swizzle/50_hopper_gemm_with_epilogue_swizzle
54_hopper_fp8_warp_specialized_gemm/54_hopper_fp8_warp_specialized_gemm
57_hopper_grouped_gemm/57_hopper_grouped_gemm
88_hopper_fmha/88_hopper_fmha"}

STAGES=${HOPPERPROBE_STAGES:-build run}
# The builds in parallel (one nvcc each), the runs one at a time.
case " $STAGES " in *" build "*) ;; *) EXAMPLES_BUILD= ;; esac
for e in ${EXAMPLES_BUILD-$EXAMPLES}; do
    n=$(basename $e)
    mkdir -p $R/$n
    [ -x $B/$n ] && continue
    ( /usr/bin/time -f "%e s wall" nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a \
        -Xptxas -v -I $C/include -I $C/tools/util/include -I $C/examples/common \
        -I $C/examples/$(dirname $e) --expt-relaxed-constexpr \
        -o $B/$n $C/examples/$e.cu -lcuda > $R/$n/build.log 2>&1 ) &
done
wait
case " $STAGES " in *" run "*) ;; *) exit 0 ;; esac
for e in $EXAMPLES; do
    n=$(basename $e)
    mkdir -p $R/$n
    [ -x $B/$n ] || { echo "$n: did not build" >> $R/failed.txt; continue; }
    timeout 120 $B/$n > $R/$n/run.txt 2>&1
    # The first four device_kernel launches (examples that run several
    # configurations launch each once or more), mangled names to match
    # ptxas's lines.
    timeout 300 ncu --kernel-name regex:device_kernel --launch-count 4 --print-kernel-base mangled \
        --section LaunchStats --section Occupancy --csv $B/$n > $R/$n/ncu.csv 2> $R/$n/ncu.err
    timeout 300 ncu --kernel-name regex:device_kernel --launch-count 4 --print-kernel-base mangled \
        --metrics smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,gpu__time_duration.sum,dram__bytes_read.sum \
        --csv $B/$n > $R/$n/ncu-metrics.csv 2>> $R/$n/ncu.err
done
