#!/usr/bin/env bash
# benchmarks/run.sh: wall time of `gpulint FILE.cu` against nvcc on the same
# files, and of the --ptxas-log path. Writes benchmarks/RESULTS.md.
#
#   bash benchmarks/run.sh [--runs N] [--build DIR] [--out FILE] [FILE.cu...]
#
# Files: examples/*.cu and benchmarks/inputs/*.cu unless given. For each file
# (hyperfine, median of N runs after one warm-up; a plain loop when hyperfine
# is missing and cannot be installed):
#   gpulint        gpulint FILE.cu                 (default target: H100 SXM, sm_90)
#   nvcc -c        nvcc -Xptxas -v -c -arch=sm_90 FILE.cu -o /dev/null
#   nvcc -fatbin   nvcc -fatbin -Xptxas -v -gencode arch=compute_90,code=sm_90 FILE.cu
#                  (what gpulint runs: device code only, no host compilation)
#   log            gpulint --ptxas-log LOG --arch sm_90        (no compiling)
#   log+src        gpulint --ptxas-log LOG FILE.cu --arch sm_90 (plus source analysis)
# The ratio gpulint / nvcc -c is what a user sees against their usual
# compile; gpulint / nvcc -fatbin is gpulint's own overhead.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
RUNS=5
BUILD=build-bench
OUTFILE=benchmarks/RESULTS.md
files=()
while [ $# -gt 0 ]; do
  case $1 in
  --runs) RUNS=$2; shift 2 ;;
  --build) BUILD=$2; shift 2 ;;
  --out) OUTFILE=$2; shift 2 ;;
  -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
  *) files+=("$1"); shift ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  files=(examples/*.cu benchmarks/inputs/*.cu)
fi

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
export GPULINT_NO_DEVICE=1 NO_COLOR=1 GPULINT_MODELS=$ROOT/models

if ! command -v hyperfine >/dev/null 2>&1; then
  SUDO=()
  [ "$(id -u)" -eq 0 ] || SUDO=(sudo)
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q hyperfine >/dev/null 2>&1 ||
    echo "hyperfine is not installable here; timing with a shell loop" >&2
fi

if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" >/dev/null
fi
meson compile -C "$BUILD" src/gpulint:executable >/dev/null
GL=$ROOT/$BUILD/src/gpulint

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# median wall time in seconds of a command (given as words), N runs
median() {
  local json=$WORK/h.json
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$json" -- "$(printf '%q ' "$@")" \
      >/dev/null 2>&1 || { echo "nan"; return; }
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$json"
  else
    "$@" >/dev/null 2>&1 || true
    local ts=()
    for _ in $(seq "$RUNS"); do
      local t0 t1
      t0=$(date +%s.%N)
      "$@" >/dev/null 2>&1 || true
      t1=$(date +%s.%N)
      ts+=("$(echo "$t1 - $t0" | bc)")
    done
    printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'
  fi
}

rows=$WORK/rows.tsv
: >"$rows"
for f in "${files[@]}"; do
  name=${f#./}
  log=$WORK/$(basename "$f").log
  "$NVCC" -fatbin -Xptxas -v -gencode arch=compute_90,code=sm_90 "$f" -o "$WORK/x.fatbin" \
    >"$log" 2>&1 || { echo "skip $name: nvcc fails" >&2; continue; }
  kernels=$(grep -c "Compiling entry function" "$log" || true)
  rc=0
  "$GL" "$f" >/dev/null 2>"$WORK/gl.err" || rc=$?
  echo "== $name ($kernels kernels, gpulint exit $rc)" >&2
  t_gl=$(median "$GL" "$f")
  t_c=$(median "$NVCC" -Xptxas -v -c -arch=sm_90 "$f" -o /dev/null)
  t_fb=$(median "$NVCC" -fatbin -Xptxas -v -gencode arch=compute_90,code=sm_90 "$f" -o "$WORK/y.fatbin")
  RUNS_SAVE=$RUNS
  RUNS=$((RUNS * 4))
  t_log=$(median "$GL" --ptxas-log "$log" --arch sm_90)
  t_logsrc=$(median "$GL" --ptxas-log "$log" "$f" --arch sm_90)
  RUNS=$RUNS_SAVE
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$(wc -l <"$f")" "$kernels" "$rc" \
    "$t_gl" "$t_c" "$t_fb" "$t_log" "$t_logsrc" >>"$rows"
  tail -1 "$rows" >&2
done

python3 - "$rows" "$OUTFILE" "$RUNS" "$GL" "$NVCC" <<'EOF'
import datetime, os, platform, statistics, subprocess, sys
rows_path, out, runs, gl, nvcc = sys.argv[1:6]
def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"
cpu = sh("lscpu | sed -n 's/^Model name: *//p'") or platform.processor()
mem = sh("free -g | awk '/^Mem:/{print $2 \" GiB\"}'")
osname = sh(". /etc/os-release && echo $PRETTY_NAME")
nv = sh(f"{nvcc} --version | tail -2 | head -1")
commit = sh("git rev-parse --short HEAD")
hf = sh("hyperfine --version") or "not available (shell loop)"
rows = [l.rstrip("\n").split("\t") for l in open(rows_path) if l.strip()]
def ms(x):
    try:
        return float(x) * 1000
    except ValueError:
        return float("nan")
lines = []
lines.append("# Benchmarks: gpulint against nvcc\n")
lines.append("Made by `bash benchmarks/run.sh` (see the script's header for the exact commands).\n")
lines.append(f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")
lines.append(f"- Machine: {cpu}, {os.cpu_count()} cores, {mem}, {osname}")
lines.append(f"- nvcc: {nv}; gpulint commit {commit} (meson default build: debugoptimized)")
lines.append(f"- Timing: {hf}; median of {runs} runs after one warm-up "
             f"(--ptxas-log columns: {int(runs) * 4} runs)")
lines.append("- Target: sm_90 everywhere (gpulint's default target without a GPU is the H100 SXM model)\n")
lines.append("| file | lines | kernels | gpulint (s) | nvcc -c (s) | gpulint / nvcc -c | nvcc -fatbin (s) | gpulint / nvcc -fatbin | --ptxas-log (ms) | --ptxas-log + source (ms) |")
lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
r_c, r_fb, logs, logsrc = [], [], [], []
for name, nlines, k, rc, g, c, fb, lg, ls in rows:
    g, c, fb, lg, ls = (ms(x) for x in (g, c, fb, lg, ls))
    rc_note = "" if rc == "0" else f" (exit {rc})"
    r_c.append(g / c); r_fb.append(g / fb); logs.append(lg); logsrc.append(ls)
    lines.append(f"| {name}{rc_note} | {nlines} | {k} | {g/1000:.2f} | {c/1000:.2f} | {g/c:.2f} | "
                 f"{fb/1000:.2f} | {g/fb:.2f} | {lg:.1f} | {ls:.1f} |")
if rows:
    lines.append("")
    lines.append(f"Median over the files: gpulint / nvcc -c = {statistics.median(r_c):.2f}, "
                 f"gpulint / nvcc -fatbin = {statistics.median(r_fb):.2f}; "
                 f"--ptxas-log {statistics.median(logs):.1f} ms (max {max(logs):.1f} ms), "
                 f"--ptxas-log with the source {statistics.median(logsrc):.1f} ms (max {max(logsrc):.1f} ms).")
lines.append("")
lines.append("What is compared: `nvcc -c` also compiles the host code (the CUDA front end for host")
lines.append("and device, then the host compiler), while gpulint runs nvcc with `-fatbin` (device")
lines.append("code only, see src/input/nvcc.c), so gpulint can be faster than the `nvcc -c` a user")
lines.append("runs anyway. The `nvcc -fatbin` column is gpulint's own nvcc call; gpulint / nvcc")
lines.append("-fatbin is the cost of gpulint itself (source analysis with libclang, log parsing,")
lines.append("occupancy, report). The machine is shared with other work: runs vary by some percent.")
# Hand-written notes below the marker in the existing file are kept.
marker = "<!-- notes: kept by benchmarks/run.sh -->"
notes = ""
if os.path.exists(out):
    old = open(out).read()
    if marker in old:
        notes = old[old.index(marker):]
text = "\n".join(lines) + "\n\n" + (notes or marker + "\n")
open(out, "w").write(text)
print(text)
EOF
