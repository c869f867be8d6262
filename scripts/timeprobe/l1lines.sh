#!/bin/sh
# l1lines.sh: on the GPU machine, l1lines.cu's clocks per request
# (run.txt, with the card and its clocks) and, per launch, Nsight
# Compute's L1 counters for the loads (ncu_*.csv, one metric a run so a
# name this card lacks fails alone), tarred into ncu.tgz; the SASS in
# l1lines.sass.
#
#   OUT=DIR sh scripts/timeprobe/l1lines.sh [FEWEST_LINES (counters)]
set -u
cd "$(dirname "$0")"
: "${OUT:?set OUT}"
nvcc -O3 -arch=sm_90 -o /tmp/l1lines l1lines.cu > "$OUT/build.log" 2>&1 || exit 1
cuobjdump -sass /tmp/l1lines > "$OUT/l1lines.sass" 2>&1
/tmp/l1lines > "$OUT/run.txt" 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,ecc.mode.current \
    --format=csv >> "$OUT/run.txt" 2>&1
mkdir -p /tmp/l1ncu
for m in l1tex__t_set_conflicts_pipe_lsu_mem_global_op_ld.sum \
         l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum \
         l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_ld.sum; do
  timeout 240 ncu --clock-control none --metrics "$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" \
      --csv /tmp/l1lines ${1:-} > "/tmp/l1ncu/ncu_$m.csv" 2>&1
done
tar czf "$OUT/ncu.tgz" -C /tmp/l1ncu .
