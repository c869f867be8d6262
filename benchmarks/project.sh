#!/usr/bin/env bash
# benchmarks/project.sh: gpulint over a whole generated project against the
# project's own parallel device compile, at several -j. Writes
# benchmarks/PROJECT.md (or --out).
#
#   bash benchmarks/project.sh [--units N] [--jobs "1 2 4"] [--runs R] [--arch sm_90]
#                              [--build DIR] [--no-source] [--gpulint PATH] [--out FILE]
#                              [--measure ninja,gpulint,wrap,rss]
#
# The project (in DIR/project): N translation units made from examples/*.cu
# and benchmarks/inputs/*.cu, each copy with its own name and -DUNIT_ID, a
# -DTILE_HINT (distinct template arguments where a file has them), all
# including two shared headers; a build.ninja that compiles each unit with
# `nvcc -c -arch=ARCH` (what the project's build runs), and its
# compile_commands.json (ninja -t compdb). For each J of --jobs, median of R:
#   ninja -jJ        the project's own device compile (clean build)
#   gpulint -jJ      gpulint -p DIR/project -j J, empty cache
#   re-run           the same, cache warm, nothing changed
#   one edited       the same after touching one unit's text
#   wrap             (with wrap in --measure) the clean build again with
#                    `gpulint wrap nvcc ...` as its command, and the time of
#                    `gpulint --from obj` over the records it left
# plus the peak RSS of gpulint's workers (GNU time) at the largest J (rss).
# --measure picks the columns (default ninja,gpulint,rss); a column not
# measured shows "-".
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
UNITS=1000
JOBS="1 2"
RUNS=1
ARCH=sm_90
BUILD=build-bench
OUT=benchmarks/PROJECT.md
SOURCE=1
GPULINT=
MEASURE=ninja,gpulint,rss
while [ $# -gt 0 ]; do
  case $1 in
  --units) UNITS=$2; shift 2 ;;
  --jobs) JOBS=$2; shift 2 ;;
  --runs) RUNS=$2; shift 2 ;;
  --arch) ARCH=$2; shift 2 ;;
  --build) BUILD=$2; shift 2 ;;
  --out) OUT=$2; shift 2 ;;
  --no-source) SOURCE=0; shift ;;
  --gpulint) GPULINT=$(realpath "$2"); shift 2 ;;
  --measure) MEASURE=$2; shift 2 ;;
  -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
  *) echo "project.sh: unknown argument $1" >&2; exit 3 ;;
  esac
done

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH
if [ -z "$GPULINT" ]; then
  if [ ! -x "$BUILD/src/gpulint" ]; then
    meson setup "$BUILD" -Dbuildtype=release -Dtests=disabled >/dev/null
  fi
  ninja -C "$BUILD" >/dev/null
  GPULINT=$ROOT/$BUILD/src/gpulint
fi
P=$ROOT/$BUILD/project
rm -rf "$P"
mkdir -p "$P/src" "$P/include"

# Shared headers every unit includes: a change to one is a change to all.
printf '#pragma once\n#define PROJECT_SCALE 2\n' >"$P/include/project_config.h"
printf '#pragma once\n#include "project_config.h"\n__device__ inline float project_scale(float x) { return x * PROJECT_SCALE; }\n' \
  >"$P/include/project_util.cuh"

mapfile -t seeds < <(ls examples/*.cu benchmarks/inputs/*.cu)
{
  echo "rule nvcc"
  echo "  command = nvcc -c -arch=$ARCH -Iinclude -DUNIT_ID=\$id -DTILE_HINT=\$tile -o \$out \$in"
  echo "  description = nvcc \$in"
} >"$P/build.ninja"
for ((i = 0; i < UNITS; i++)); do
  seed=${seeds[$((i % ${#seeds[@]}))]}
  base=$(basename "$seed" .cu)
  name=u$(printf '%04d' "$i")_$base.cu
  {
    echo '#include "project_util.cuh"'
    cat "$seed"
    echo "__global__ void unit_marker_$i(float *x) { x[threadIdx.x] = project_scale(x[threadIdx.x]) + UNIT_ID; }"
  } >"$P/src/$name"
  echo "build obj/$name.o: nvcc src/$name" >>"$P/build.ninja"
  echo "  id = $i" >>"$P/build.ninja"
  echo "  tile = $((16 << (i % 2)))" >>"$P/build.ninja"
done
(cd "$P" && ninja -t compdb nvcc >compile_commands.json)
# The same build with gpulint wrap as its compiler launcher.
sed "s|command = nvcc |command = $GPULINT wrap nvcc |" "$P/build.ninja" >"$P/wrap.ninja"
measures() { [[ ",$MEASURE," == *",$1,"* ]]; }
# ninja writes "directory" as the project and paths relative to it.

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }

src_flag=()
[ "$SOURCE" = 1 ] || src_flag=(--no-source)
rows=()
timed() { # command...: prints the wall seconds it took
  local t0 t1
  t0=$(now)
  "$@" >/dev/null 2>&1 || true
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}'
}
clean_build() { # ninja file, -j
  (cd "$P" && rm -rf obj && ninja -f "$1" -j "$2" >"$P/.ninja.log")
}
for j in $JOBS; do
  ninja_t=() cold=() warm=() edit=() wrap_t=() from_t=()
  for ((r = 0; r < RUNS; r++)); do
    # Alternating the plain and the wrapped build, so drift in the machine
    # (clocks, page cache) falls on both.
    if measures ninja; then ninja_t+=("$(timed clean_build build.ninja "$j")"); fi
    if measures wrap; then
      wrap_t+=("$(timed clean_build wrap.ninja "$j")")
      from_t+=("$(cd "$P" && timed "$GPULINT" --from obj --format json)")
    fi
    measures gpulint || continue
    export GPULINT_CACHE_DIR=$P/.cache
    rm -rf "$GPULINT_CACHE_DIR"
    t0=$(now)
    (cd "$P" && "$GPULINT" -p . -j "$j" --format json "${src_flag[@]}" >/dev/null 2>"$P/.err") || true
    t1=$(now)
    cold+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
    t0=$(now)
    (cd "$P" && "$GPULINT" -p . -j "$j" --format json "${src_flag[@]}" >/dev/null 2>&1) || true
    t1=$(now)
    warm+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
    echo "// edited" >>"$P/src/u0000_$(basename "${seeds[0]}" .cu).cu"
    t0=$(now)
    (cd "$P" && "$GPULINT" -p . -j "$j" --format json "${src_flag[@]}" >/dev/null 2>&1) || true
    t1=$(now)
    edit+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  done
  med() { if [ $# -gt 0 ]; then printf '%s\n' "$@" | median; else echo -; fi; }
  n=$(med "${ninja_t[@]}") c=$(med "${cold[@]}") w=$(med "${warm[@]}") e=$(med "${edit[@]}")
  wb=$(med "${wrap_t[@]}") fr=$(med "${from_t[@]}")
  rows+=("$(awk -v j="$j" -v n="$n" -v c="$c" -v w="$w" -v e="$e" -v wb="$wb" -v fr="$fr" '
    function f(x, fmt) { return x == "-" ? "-" : sprintf(fmt, x) }
    function r(a, b, fmt) { return (a == "-" || b == "-") ? "-" : sprintf(fmt, a / b) }
    BEGIN {
      printf "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |", j, f(n, "%.1f"), f(c, "%.1f"),
        r(c, n, "%.2f"), f(w, "%.2f"), (w == "-" ? "-" : sprintf("%.1f%%", 100 * w / c)),
        f(e, "%.2f"), f(wb, "%.1f"), (wb == "-" || n == "-") ? "-" : sprintf("%+.1f%%", 100 * (wb / n - 1)),
        f(fr, "%.2f") }')")
  echo "j=$j: ninja $n s, gpulint $c s, re-run $w s, one edited $e s, wrapped build $wb s, --from $fr s" >&2
  echo "${rows[-1]}" >&2
done
jmax=${JOBS##* }
rss=""
if measures rss && [ -x /usr/bin/time ]; then
  export GPULINT_CACHE_DIR=$P/.cache-rss
  rm -rf "$GPULINT_CACHE_DIR"
  # GNU time reports the largest RSS among the process and its waited-for
  # children: one worker (with its libclang) or gpulint itself.
  rss=$(cd "$P" && /usr/bin/time -f '%M' "$GPULINT" -p . -j "$jmax" "${src_flag[@]}" --format json \
    2>&1 >/dev/null | tail -1)
fi

{
  echo "# gpulint over a generated project"
  echo
  echo "\`bash benchmarks/project.sh --units $UNITS --jobs \"$JOBS\" --runs $RUNS --measure $MEASURE\`"
  echo "on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
  echo "$(nvcc --version | tail -1), $(date -u +%Y-%m-%d)."
  echo "$UNITS units from $(printf '%s\n' "${seeds[@]}" | wc -l) seed files, target $ARCH,"
  echo "source analysis $([ "$SOURCE" = 1 ] && echo on || echo "off (--no-source)"); medians of $RUNS."
  echo
  echo "| -j | ninja -j (s) | gpulint -p -j (s) | ratio | re-run (s) | re-run / first | one unit edited (s) | ninja -j under wrap (s) | wrap's cost | --from (s) |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  [ -n "$rss" ] && echo "Peak RSS of one process (GNU time, -j $jmax): $((rss / 1024)) MiB."
} >"$OUT"
cat "$OUT"
