#!/usr/bin/env bash
# ncu-examples.sh: on the GPU machine, measure the shared-memory wavefronts
# and global-memory sectors of every kernel in examples/ with Nsight Compute,
# for tests/data/ncu/ (compared with gpulint's predictions by
# tests/cli/ncu_compare.py). Output: "$OUT"/ncu-<example>.csv.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-build-ncu}/ncu
mkdir -p "$OUT"
export PATH=${CUDA_HOME:-/usr/local/cuda}/bin:$PATH
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -1
  ncu --version | tail -1
} >"$OUT/ncu-env.txt"
for src in examples/*.cu; do
  name=$(basename "$src" .cu)
  bin=/tmp/ncu-$name
  # The same flags gpulint's report uses for the target.
  if ! nvcc -O3 -arch=sm_90 -lineinfo -o "$bin" "$src" -lcuda >"$OUT/build-$name.log" 2>&1; then
    echo "$name: build failed" >>"$OUT/ncu-env.txt"
    continue
  fi
  ncu --metrics "$metrics" --csv --clock-control none "$bin" 64 >"$OUT/ncu-$name.csv" 2>"$OUT/ncu-$name.err" || \
    echo "$name: ncu failed ($?)" >>"$OUT/ncu-env.txt"
done
echo "ncu-examples: $(ls "$OUT"/ncu-*.csv | wc -l) csv files"
