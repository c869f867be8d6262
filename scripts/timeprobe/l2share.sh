#!/bin/sh
# On the GPU machine: stencilprobe.cu (what L1 keeps of overlapping loads)
# and gemmwave.cu at three sizes (which GEMM re-reads L2 serves) under
# Nsight Compute (tests/data/timeprobe/h200/l2share). OUT=DIR sh l2share.sh;
# results in $OUT/l2share.tar.gz
set -u
cd "$(dirname "$0")"
R=/tmp/l2share; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/env.txt 2>&1
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/stencilprobe stencilprobe.cu > $R/build.log 2>&1 || exit 1
/tmp/stencilprobe > $R/stencil_run.txt 2>&1
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
ncu --launch-skip 0 --metrics $M --csv /tmp/stencilprobe > $R/stencil_ncu.csv 2> $R/stencil_ncu.err
ncu --clock-control none --kernel-name regex:'rf_stencil|tr_copy|st_' --launch-count 10 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --csv --page details /tmp/stencilprobe > $R/stencil_sections.csv 2> $R/stencil_sections.err
G=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for n in 2048 4096 8192; do
  nvcc -O3 -arch=sm_90 -DPROBE_N=$n -o /tmp/gemmwave$n gemmwave.cu >> $R/build.log 2>&1 || continue
  /tmp/gemmwave$n > $R/gemm${n}_run.txt 2>&1
  ncu --metrics $G --csv /tmp/gemmwave$n > $R/gemm${n}_ncu.csv 2> $R/gemm${n}_ncu.err
done
cuobjdump -sass -fun rf_stencil /tmp/stencilprobe > $R/rf_stencil.sass 2>&1
cd /tmp && tar czf $OUT/l2share.tar.gz l2share
echo "l2probe: done"
