#!/bin/sh
# On the GPU machine: the time model's hardware constants under Nsight
# Compute, at the clocks it locks (as the truth set was measured) and at the
# card's own clocks. OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")"
R=$OUT/timeprobe; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
nvcc -O3 -arch=sm_90 -o probe timeprobe.cu > $R/build.log 2>&1
./probe > $R/run.txt 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,dram__bytes_read.sum,lts__t_bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
P=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.peak_sustained,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum.peak_sustained,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained,lts__t_sectors.sum.peak_sustained,lts__t_bytes.sum.peak_sustained,dram__bytes.sum.peak_sustained,dram__bytes_read.sum.peak_sustained,smsp__inst_executed.sum.peak_sustained,sm__inst_executed.sum.peak_sustained,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained,l1tex__t_bytes.sum.peak_sustained,sm__warps_active.sum.peak_sustained
ncu --metrics $M,$P --csv ./probe > $R/ncu_base.csv 2> $R/ncu_base.err
ncu --clock-control none --metrics $M --csv ./probe > $R/ncu_none.csv 2> $R/ncu_none.err
cuobjdump -sass probe > $R/probe.sass 2>&1
# The store-reload chains (launches 18-21) alone, with what L1 and L2 served.
RM=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum
ncu --kernel-name reload --metrics $RM --csv ./probe > $R/ncu_reload_base.csv 2> $R/ncu_reload_base.err
ncu --clock-control none --kernel-name reload --metrics $RM --csv ./probe > $R/ncu_reload_none.csv 2> $R/ncu_reload_none.err
# DRAM both ways and stores that write part of a sector (launches 22-27).
MM=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
ncu --kernel-name regex:'copy_bw|write_partial' --metrics $MM --csv ./probe > $R/ncu_more_base.csv 2> $R/ncu_more_base.err
# A barrier loop's iteration with and without a store (lockstep loops), at
# the card's own clock; partial-sector stores by how many share a line.
nvcc -O3 -arch=sm_90 -o barrierprobe barrierprobe.cu >> $R/build.log 2>&1 && ./barrierprobe > $R/barrier.txt 2>&1
nvcc -O3 -arch=sm_90 -o partialprobe partialprobe.cu >> $R/build.log 2>&1 && ./partialprobe > $R/partial.txt 2>&1
ncu --metrics lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,gpu__time_duration.sum --csv ./partialprobe > $R/partial_ncu.csv 2> $R/partial_ncu.err
# What reaches DRAM during a launch: gathers (DRAM's 64-byte access) and
# how much of a launch's writes L2 holds at its end (dramprobe.cu).
mkdir -p $R/dram
nvcc -O3 -arch=sm_90 -o dramprobe dramprobe.cu >> $R/build.log 2>&1 && ./dramprobe > $R/dram/run.txt 2>&1
ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_op_write.sum --csv ./dramprobe > $R/dram/dram_ncu.csv 2> $R/dram/dram_ncu.err
