#!/bin/sh
# On the GPU machine: FlashAttention-3's forward kernel (hopper/, bf16, head
# dimension 128; Dao-AILab/flash-attention with the CUTLASS its submodule
# pins, both at .fa3/COMMIT, BSD-3-Clause) built with FA3's own nvcc flags
# (flags.txt, from hopper/setup.py, the features this driver does not use
# left out) around fa3_fwd.cu, run, and profiled by Nsight Compute: each
# launch's block, registers, shared memory, cluster, theoretical occupancy
# and the runtime's cluster figures, for tests/hopper_truth.py.
# .fa3/ is git-ignored and carried (scripts/fa3probe/fetch.sh makes it).
# OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")/../.."
R=$OUT/hopperprobe/fa3_fwd
mkdir -p $R build-hopperprobe
cp .fa3/COMMIT $R/commit.txt
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt
B=build-hopperprobe/fa3_fwd
[ -x $B ] || /usr/bin/time -f "%e s wall" nvcc -Xptxas -v $(cat scripts/fa3probe/flags.txt) \
    -o $B scripts/fa3probe/fa3_fwd.cu > $R/build.log 2>&1
timeout 120 $B > $R/run.txt 2>&1
timeout 300 ncu --kernel-name regex:device_kernel --launch-count 4 --print-kernel-base mangled \
    --section LaunchStats --section Occupancy --csv $B > $R/ncu.csv 2> $R/ncu.err
timeout 300 ncu --kernel-name regex:device_kernel --launch-count 4 --print-kernel-base mangled \
    --metrics smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,gpu__time_duration.sum,dram__bytes_read.sum \
    --csv $B > $R/ncu-metrics.csv 2>> $R/ncu.err
