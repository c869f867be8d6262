#!/bin/bash
# On the GPU machine: the XU pipe's conversions and rate (xuprobe.cu), the
# XU instructions of each PTX instruction of scripts/ptxprobe, and the pipe
# use of HeCBench fitting-half launches the time model predicts short
# (their first launch of each kernel, Nsight Compute's ComputeWorkloadAnalysis,
# InstructionStats and WarpStateStats sections).  OUT=DIR bash run.sh
set -u
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
R=$OUT/xuprobe; mkdir -p "$R"
{ date -u; nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -1; ncu --version | tail -1; } > "$R/env.txt" 2>&1
NCU=(ncu --clock-control none --csv --page raw)
nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/xuprobe xuprobe.cu > "$R/build.log" 2>&1
"${NCU[@]}" --metrics smsp__inst_executed.sum,smsp__inst_executed_pipe_xu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_alu.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.max,gpu__time_duration.sum,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active \
  --log-file "$R/xu.csv" /tmp/xuprobe > "$R/xu.out" 2>&1
# A metric this ncu does not know fails the whole run: then the three that matter.
grep -q rate_ex2 "$R/xu.csv" 2>/dev/null ||
  "${NCU[@]}" --metrics smsp__inst_executed.sum,smsp__inst_executed_pipe_xu.sum,sm__cycles_elapsed.avg \
    --log-file "$R/xu.csv" /tmp/xuprobe > "$R/xu.out" 2>&1
cuobjdump -sass /tmp/xuprobe > "$R/xu_sass.txt" 2>&1
(cd ../ptxprobe && python3 gen.py && nvcc -O3 -arch=sm_90 -lineinfo -o /tmp/ptxprobe ptxprobe.cu) >> "$R/build.log" 2>&1
"${NCU[@]}" --metrics smsp__inst_executed.sum,smsp__inst_executed_pipe_xu.sum --log-file "$R/ptx_xu.csv" /tmp/ptxprobe > "$R/ptx_xu.out" 2>&1
for p in mask black-scholes cobahh heat2d goulash all-pairs-distance burger colorwheel logprob keogh; do
  python3 - "$ROOT" "$p" > /tmp/hb_cmd.sh <<'PY'
import json, os, re, shlex, sys
root, name = sys.argv[1], sys.argv[2]
p = json.load(open(os.path.join(root, "tests/data/hecbench/programs.json")))["programs"][name]
keep = re.compile(r"^(-std=|-D|-I|--expt-|--extended-lambda|-use_fast_math|--use_fast_math)")
flags = [t for t in p["cflags"].split() if keep.match(t)]
srcs = [s for s in p["sources"] if s.endswith(".cu")]
print("nvcc -O3 -arch=sm_90 -lineinfo " + " ".join(shlex.quote(x) for x in flags + srcs) + " -o /tmp/hb_main")
print("ARGS=" + shlex.quote(" ".join(p["args"])))
PY
  (cd "$ROOT/tests/data/hecbench/src/$p" && source /tmp/hb_cmd.sh > "$R/hb_$p.build" 2>&1 &&
   timeout -k 10 60 "${NCU[@]}" --kernel-id ::regex:.:1 -c 8 --kill yes \
     --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --section SpeedOfLight \
     --log-file "$R/hb_$p.csv" /tmp/hb_main $ARGS > "$R/hb_$p.out" 2>&1)
done
gzip -9 "$R/xu_sass.txt"
ls -la "$R"
