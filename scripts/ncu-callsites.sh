#!/usr/bin/env bash
# ncu-callsites.sh: on the GPU machine, measure the kernels of
# tests/data/cli/cu/helpers.cu (work in __device__ helpers), its
# hand-inlined twin and fnptr-launch.cu (launches through function
# pointers) with Nsight Compute: executed FP32 instructions from the SASS
# counters (FADD, FMUL, FFMA: FLOPs = FADD + FMUL + 2 FFMA), shared-memory
# instructions and wavefronts, global sectors and requests. gpulint's
# static counts for the same files are checked against the recorded CSVs by
# tests/call_sites.py.
# Output: "$OUT"/callsites/{env.txt,<name>.csv}.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
export PATH=${CUDA_HOME:-/usr/local/cuda}/bin:$PATH
RES=${OUT:-/tmp}/callsites
W=/tmp/callsites-bin
rm -rf "$W" "$RES"
mkdir -p "$W" "$RES"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -1
  ncu --version | tail -1
} >"$RES/env.txt" 2>&1
for n in helpers helpers-inlined fnptr-launch; do
  nvcc -O3 -arch=sm_90 -lineinfo -o "$W/$n" "$ROOT/tests/data/cli/cu/$n.cu" >"$RES/build-$n.log" 2>&1 &
done
wait
m=smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
m+=,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
m+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
m+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
m+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
m+=,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
for n in helpers helpers-inlined; do
  timeout 200 ncu --metrics "$m" --csv --clock-control base "$W/$n" >"$RES/$n.csv" 2>"$RES/$n.err"
  echo "$n rc=$?" >>"$RES/env.txt"
done
for k in 0 1 2; do
  timeout 100 ncu --metrics "$m" --csv --clock-control base "$W/fnptr-launch" $k \
    >"$RES/fnptr-launch-$k.csv" 2>"$RES/fnptr-launch-$k.err"
  echo "fnptr-launch $k rc=$?" >>"$RES/env.txt"
done
tar -czf "${OUT:-/tmp}/callsites.tgz" -C "${OUT:-/tmp}" callsites && rm -rf "$RES"
