#!/bin/bash
# ncu-hecbench.sh: on the GPU machine, Nsight Compute's counters of the
# first launch of every kernel of the HeCBench programs carried in DIR.
#
#   OUT=... bash scripts/hecbench/ncu-hecbench.sh DIR [BUDGET_S [PROGS]]
#
# DIR holds PROGS (default progs.txt; lines "name<TAB>args"), and per program
# NAME/main (built by scripts/hecbench/build.sh with the program's own
# Makefile, sm_90, -lineinfo) and NAME/kernels.txt (the mangled names of the
# kernels the binary holds, from its host stubs). Each program runs from its
# own directory with its repository's arguments (the Makefile's `run`).
#
# Clocks are left to the card (--clock-control none: the workplace's rule
# for shared machines); sm__cycles_elapsed.avg.per_second records the clock
# each launch ran at. Caches are flushed before each profiled launch (the
# default), so the DRAM bytes are a cold launch's.
#
# Mode: where `--kernel-id ::regex:.:1` profiles the first invocation of
# every kernel function (checked on a probe program first), one ncu run
# per program, stopped once each kernel the binary holds was profiled;
# otherwise one run per kernel (-k, -c 1, --kill).
# Appends to $OUT/ncu.csv (a "### NAME" line, then ncu's raw CSV) and
# $OUT/run.log as it goes, so a run cut short keeps what it measured.
# Stops starting programs after BUDGET_S seconds (default 440; a program
# is stopped after PROG_TIMEOUT seconds, default 45).
set -u
DIR=$(cd "$1" && pwd)
BUDGET=${2:-440}
PROGS=${3:-progs.txt}
: "${OUT:?set OUT}"
T0=$(date +%s)
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_hadd_pred_on.sum,smsp__sass_thread_inst_executed_op_hmul_pred_on.sum,smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_registers,sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active
NCU=(ncu --clock-control none --kernel-name-base mangled --metrics "$METRICS" --csv --page raw)
{
  echo "### env"; date -u; nvidia-smi --query-gpu=name,uuid,serial,driver_version,clocks.sm,clocks.max.sm,clocks.max.mem,power.limit --format=csv
  ncu --version | tail -1; nvcc --version | tail -1
} >> "$OUT/run.log" 2>&1

# Does --kernel-id's invocation number count per kernel function?
cat > /tmp/kid.cu <<'CU'
__global__ void ka(float *p) { p[threadIdx.x] += 1; }
__global__ void kb(float *p) { p[threadIdx.x] *= 2; }
int main() { float *p; cudaMalloc(&p, 4096);
  for (int i = 0; i < 3; i++) ka<<<1, 32>>>(p);
  for (int i = 0; i < 3; i++) kb<<<2, 32>>>(p);
  cudaDeviceSynchronize(); return 0; }
CU
MODE=per-kernel
if nvcc -arch=sm_90 -o /tmp/kid /tmp/kid.cu >/dev/null 2>&1 &&
   "${NCU[@]}" --kernel-id ::regex:.:1 --log-file /tmp/kid.csv /tmp/kid >/dev/null 2>&1; then
  # one result row per kernel function: ka's first launch and kb's
  rows=$(grep -c '^"[0-9]' /tmp/kid.csv)
  names=$(grep -o '"k[ab](float \*)"' /tmp/kid.csv | sort -u | wc -l)
  [ "$rows" = 2 ] && [ "$names" = 2 ] && MODE=per-program
  echo "### kernel-id probe: $rows results of $names kernel functions: mode $MODE" >> "$OUT/run.log"
fi
# HECBENCH_MODE overrides the probe (a run that already knows the answer).
MODE=${HECBENCH_MODE:-$MODE}

while IFS=$'\t' read -r name args; do
  [ -n "$name" ] || continue
  now=$(($(date +%s) - T0))
  if [ "$now" -gt "$BUDGET" ]; then echo "### $name: not started, budget spent at $now s" >> "$OUT/run.log"; continue; fi
  cd "$DIR/$name" || continue
  echo "### $name ($MODE, at $now s): ./main $args" >> "$OUT/run.log"
  if [ "$MODE" = per-program ]; then
    rm -f /tmp/one.csv
    s=$(date +%s.%N)
    # At most one profiled launch per kernel function the binary holds,
    # then the program is stopped (its CPU reference checks measure nothing).
    nk=$(grep -c . kernels.txt)
    # shellcheck disable=SC2086
    timeout -s INT -k 10 ${PROG_TIMEOUT:-45} "${NCU[@]}" --kernel-id ::regex:.:1 -c "$nk" --kill yes \
      --log-file /tmp/one.csv ./main $args > /tmp/app.out 2>&1
    rc=$?
    head -c 3000 /tmp/app.out >> "$OUT/run.log"
    echo "### $name rc=$rc $(echo "$(date +%s.%N) - $s" | bc) s" >> "$OUT/run.log"
    { echo "### $name"; cat /tmp/one.csv 2>/dev/null; } >> "$OUT/ncu.csv"
  else
    while read -r k; do
      [ -n "$k" ] || continue
      rm -f /tmp/one.csv
      # shellcheck disable=SC2086
      timeout 60 "${NCU[@]}" -k "regex:^${k}\$" -c 1 --kill yes --log-file /tmp/one.csv ./main $args \
        > /dev/null 2>> "$OUT/run.log"
      { echo "### $name $k"; cat /tmp/one.csv 2>/dev/null; } >> "$OUT/ncu.csv"
    done < kernels.txt
  fi
done < "$DIR/$PROGS"
echo "### done at $(($(date +%s) - T0)) s" >> "$OUT/run.log"
