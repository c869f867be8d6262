#!/usr/bin/env bash
# ncu-sass.sh: on the GPU machine, measure shared-memory wavefronts of the
# examples and of kernels/smem_contention.cu two ways:
#
#  - the hardware counters l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*
#    (what scripts/ncu-examples.sh records), which count every wavefront the
#    L1TEX data stage processed for shared memory;
#  - the SASS-patched counters smsp__sass_l1tex_data_pipe_lsu_wavefronts_*
#    (Nsight Compute instruments each shared instruction and counts the
#    wavefronts its addresses need), kernel totals and, through the source
#    page, per CUDA source line (-lineinfo) and per SASS instruction.
#
# Output: "$OUT"/ncu-sass.tgz with res/kernel-<name>.csv (kernel totals),
# res/sass-<name>.csv (the shared-memory instructions of the source page,
# per launch, pruned by scripts/ncu-sass-prune.py) and res/env.txt; these
# are what tests/data/ncu/<device>/ keeps. Compare with
#   python3 tests/ncu_sass_compare.py build/src/gpulint . tests/data/ncu/<device>
#   python3 tests/ncu_contention.py tests/data/ncu/<device>/kernel-smem_contention.csv
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
export PATH=${CUDA_HOME:-/usr/local/cuda}/bin:$PATH
W=${NCU_SASS_WORK:-/tmp/ncu-sass}
RES=$W/res
rm -rf "$W"
mkdir -p "$RES" "$W/bin"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -1
  ncu --version | tail -1
  git rev-parse HEAD 2>/dev/null
} >"$RES/env.txt" 2>&1

srcs="examples/transpose.cu examples/gemm_tiled.cu examples/reduction.cu examples/stencil.cu"
srcs+=" examples/dynamic_smem.cu examples/cub_block_reduce.cu kernels/smem_contention.cu"
for s in $srcs; do
  n=$(basename "$s" .cu)
  nvcc -O3 -arch=sm_90 -lineinfo -o "$W/bin/$n" "$ROOT/$s" >"$RES/build-$n.log" 2>&1 &
done
wait
ls "$W/bin" >>"$RES/env.txt"


hw=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
hw+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
hw+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
hw+=,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
sass=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
sass+=,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
sass+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
sass+=,smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
sass+=,smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum

for b in "$W"/bin/*; do
  n=$(basename "$b")
  args=64
  [ "$n" = smem_contention ] && args=all
  timeout 150 ncu --metrics "$hw,$sass" --csv --clock-control none "$b" $args \
    >"$RES/kernel-$n.csv" 2>"$RES/kernel-$n.err"
  echo "$n kernel rc=$?" >>"$RES/env.txt"
  timeout 150 ncu --set none --section SourceCounters --import-source yes -f \
    -o "$W/rep-$n" "$b" $args >"$RES/rep-$n.log" 2>&1
  echo "$n source rc=$?" >>"$RES/env.txt"
  timeout 60 ncu -i "$W/rep-$n.ncu-rep" --page source --csv --print-source cuda,sass \
    >"$W/src-$n.csv" 2>"$RES/src-$n.err"
  echo "$n page source rc=$?" >>"$RES/env.txt"
  python3 scripts/ncu-sass-prune.py "$W/src-$n.csv" >"$RES/sass-$n.csv"
done
# Run-to-run spread of the hardware counter on one kernel with a surplus.
for i in 1 2 3; do
  timeout 60 ncu --metrics "$hw,$sass" --csv --clock-control none "$W/bin/stencil" \
    >"$RES/repeat-stencil-$i.csv" 2>&1
done
tar czf "${OUT:-$W}/ncu-sass.tgz" -C "$W" res
echo "ncu-sass: done, $(ls "$RES" | wc -l) files"
