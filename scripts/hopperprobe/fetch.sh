#!/bin/sh
# Makes .cutlass/ (git-ignored; carried to the GPU machine by
# scripts/hopperprobe/run.sh's caller): NVIDIA/cutlass's headers, its
# tools/util headers and the Hopper examples run.sh builds, at the commit
# tests/data/hopperprobe/cutlass-commit.txt records (BSD-3-Clause).
# sh fetch.sh CUTLASS_GIT_DIR   (a clone, or a bare mirror)
set -eu
[ $# -eq 1 ] || { echo "usage: fetch.sh CUTLASS_GIT_DIR" >&2; exit 2; }
G=$1
cd "$(dirname "$0")/../.."
COMMIT=$(cat tests/data/hopperprobe/cutlass-commit.txt)
rm -rf .cutlass
mkdir -p .cutlass
git --git-dir="$G" archive "$COMMIT" include tools/util/include examples/common \
    examples/48_hopper_warp_specialized_gemm examples/49_hopper_gemm_with_collective_builder \
    examples/50_hopper_gemm_with_epilogue_swizzle examples/54_hopper_fp8_warp_specialized_gemm \
    examples/57_hopper_grouped_gemm examples/88_hopper_fmha | tar -x -C .cutlass
echo "$COMMIT" > .cutlass/COMMIT
