#!/bin/bash
# On the GPU machine: the pipe each probed PTX instruction issues to
# (gen.py, pipeprobe.cu), every smsp__inst_executed_pipe_* metric this
# Nsight Compute knows, and the SASS.  OUT=DIR bash run.sh
set -u
cd "$(dirname "$0")"
R=$OUT/pipeprobe; mkdir -p "$R"
{ date -u; nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -1; ncu --version | tail -1; } > "$R/env.txt" 2>&1
python3 gen.py
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/pipeprobe pipeprobe.cu > "$R/build.log" 2>&1
/tmp/pipeprobe > "$R/run.txt" 2>&1
ncu --query-metrics --chip gh100 > /tmp/metrics.txt 2>&1
M=$(grep -o '^smsp__inst_executed_pipe_[a-z0-9_]*' /tmp/metrics.txt | sort -u | sed 's/$/.sum/' | paste -sd,)
[ -n "$M" ] || M=smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_fmaheavy.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_pipe_xu.sum
echo "$M" > "$R/metrics.txt"
ncu --clock-control none --csv --page raw --metrics "smsp__inst_executed.sum,$M" \
  --log-file "$R/pipes.csv" /tmp/pipeprobe > "$R/ncu.out" 2>&1
cuobjdump -sass /tmp/pipeprobe > "$R/sass.txt" 2>&1
gzip -9 "$R/sass.txt" "$R/pipes.csv"
ls -la "$R"
