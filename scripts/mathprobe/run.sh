#!/bin/sh
# On the GPU machine: build the probe with and without --use_fast_math,
# profile every launch, keep the SASS of each arch. OUT=DIR sh run.sh
set -u
cd "$(dirname "$0")"
R=$OUT/mathprobe; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $R/env.txt
nvcc --version >> $R/env.txt
M=smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed.sum
for mode in default fast ftz approx; do
  case $mode in default) F="";; fast) F=--use_fast_math;; ftz) F=-ftz=true;; approx) F="-prec-div=false -prec-sqrt=false";; esac
  nvcc -O3 -diag-suppress 550 -arch=sm_90 $F -o probe_$mode mathprobe.cu >> $R/build.log 2>&1
  ./probe_$mode > $R/run_$mode.txt 2>&1
  ncu --metrics $M --csv ./probe_$mode > $R/ncu_$mode.csv 2> $R/ncu_$mode.err
  for a in 80 89 90 100 120; do
    nvcc -O3 -diag-suppress 550 -cubin -arch=sm_$a $F -o p_${a}_$mode.cubin mathprobe.cu >> $R/build.log 2>&1
    cuobjdump -sass p_${a}_$mode.cubin > $R/sass_${a}_$mode.txt 2>&1
  done
done
cd $R && tar czf ../mathprobe.tgz . && cd .. && rm -rf $R
