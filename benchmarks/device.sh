#!/usr/bin/env bash
# benchmarks/device.sh: build gpulint on the GPU machine (from .deps/, no
# libclang, no cairo) and run benchmarks/project.sh there with the given
# arguments; the machine's record (cores, CPU, driver, nvcc) and the
# results go to $OUT (the device runner brings that folder back).
#
#   bash benchmarks/device.sh --units 1000 --jobs 16 --no-source --out "$OUT/a.md"
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BUILD=build-bench
OUT=${OUT:-$ROOT/$BUILD/results}
mkdir -p "$OUT"
# shellcheck source=scripts/gpu-env.sh
. "$ROOT/scripts/gpu-env.sh"
command -v ninja >/dev/null || export PATH=$PATH:/opt/torch/.venv/bin

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cores: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "nvcc: $(nvcc --version | tail -1)"
  echo "ninja: $(ninja --version)"
  { nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none; } | sed 's/^/gpu: /'
} >"$OUT/machine.txt"
cat "$OUT/machine.txt"

if [ ! -f "$BUILD/build.ninja" ]; then
  meson setup "$BUILD" -Dbuildtype=release -Dlibclang=disabled -Dcharts=disabled \
    -Dtests=disabled -Dman=disabled -Dgpu_tests=disabled -Dtoolkit_dir="$CUDA_HOME" \
    >"$OUT/meson-setup.txt" 2>&1 || { tail -20 "$OUT/meson-setup.txt"; exit 1; }
fi
ninja -C "$BUILD" >"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 1; }
exec bash benchmarks/project.sh --build "$BUILD" --gpulint "$BUILD/src/gpulint" "$@"
