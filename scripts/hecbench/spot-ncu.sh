#!/bin/bash
# spot-ncu.sh: on the GPU machine, a spot check of HeCBench programs outside
# the truth set whose DRAM footprint or floor a rule moved. DIR holds
# progs.txt ("name args" lines: stop 89's were convolution1D 134217728 1,
# quantBnB 16777216 1 and entropy 8192 8192 1) and NAME/, the program's
# sources (git archive of src/NAME-cuda); each is built with its own
# Makefile (sm_90) and every launch of one run profiled by Nsight Compute
# at the card's clocks (--clock-control none). Writes $OUT/NAME.csv.
#
#   OUT=... bash scripts/hecbench/spot-ncu.sh DIR
set -u
: "${OUT:?}"
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.max.mem,power.limit --format=csv > "$OUT/device.csv" 2>&1
{ ncu --version | tail -1; nvcc --version | tail -1; } > "$OUT/env.txt" 2>&1
ROOT=$(cd "$1" && pwd)
while read -r name args; do
  [ -n "$name" ] || continue
  d="$ROOT/$name"
  (cd "$d" && make ARCH=sm_90 -j8 > "$OUT/$name.build" 2>&1) || { echo "$name: build failed" >> "$OUT/run.log"; continue; }
  t=$(date +%s)
  # shellcheck disable=SC2086
  (cd "$d" && timeout 240 ncu --clock-control none --kernel-name-base mangled --metrics "$METRICS" \
      --csv --page raw --log-file "$OUT/$name.csv" ./main $args > "$OUT/$name.out" 2>&1)
  echo "$name ($args): rc $?, $(( $(date +%s) - t )) s, $(grep -c '^"[0-9]' "$OUT/$name.csv") launches" >> "$OUT/run.log"
done < "$ROOT/progs.txt"
