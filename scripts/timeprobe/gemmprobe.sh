#!/bin/sh
# On the GPU machine: gemmprobe.cu (the reference GEMMs) under Nsight
# Compute, the second launch of each: sections for stall reasons, memory
# and occupancy, then counters for L2 hits by source and shared wavefronts,
# and the SASS of the five kernels. OUT=DIR sh gemmprobe.sh
set -u
cd "$(dirname "$0")"
R=$OUT/gemm; mkdir -p "$R"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$R/env.txt" 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/gemmprobe gemmprobe.cu > "$R/build.log" 2>&1 || exit 1
/tmp/gemmprobe > "$R/run.txt" 2>&1
SKIP="--launch-skip 5 --launch-count 5"
ncu $SKIP --section SpeedOfLight --section WarpStateStats --section Occupancy \
  --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section LaunchStats \
  --csv --page details /tmp/gemmprobe > "$R/sections.csv" 2> "$R/sections.err"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
ncu $SKIP --metrics $M --csv /tmp/gemmprobe > "$R/counters.csv" 2> "$R/counters.err"
ncu $SKIP --metrics lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors.sum --csv /tmp/gemmprobe > "$R/fabric.csv" 2> "$R/fabric.err"
# The first launch of each too (cold L2, as verify's DRAM rows flush it).
ncu --launch-count 5 --cache-control all --metrics $M --csv /tmp/gemmprobe > "$R/counters_first.csv" 2> "$R/counters_first.err"
cuobjdump -sass -fun gemm_regtile /tmp/gemmprobe > "$R/gemm_regtile.sass" 2>&1
cuobjdump -sass -fun gemm_wmma /tmp/gemmprobe > "$R/gemm_wmma.sass" 2>&1
cuobjdump -sass -fun gemm_vec /tmp/gemmprobe > "$R/gemm_vec.sass" 2>&1
echo "gemmprobe: done"
