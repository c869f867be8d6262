#!/bin/sh
# Makes .fa3/ (git-ignored, carried to the GPU machine): FlashAttention-3's
# hopper/ sources and the CUTLASS headers its csrc/cutlass submodule pins.
# sh fetch.sh FLASH_ATTENTION_GIT_DIR CUTLASS_GIT_DIR   (clones or mirrors)
set -eu
[ $# -eq 2 ] || { echo "usage: fetch.sh FLASH_ATTENTION_GIT_DIR CUTLASS_GIT_DIR" >&2; exit 2; }
cd "$(dirname "$0")/../.."
FA=$(cat tests/data/hopperprobe/fa3_fwd/commit.txt | sed -n 's/^flash-attention \([0-9a-f]*\);.*/\1/p')
CU=$(cat tests/data/hopperprobe/fa3_fwd/commit.txt | sed -n 's/.*cutlass \([0-9a-f]*\)$/\1/p')
rm -rf .fa3
mkdir -p .fa3
git --git-dir="$1" archive "$FA" hopper | tar -x -C .fa3
git --git-dir="$2" archive "$CU" include | tar -x -C .fa3
mv .fa3/include .fa3/cutlass-include
rm -rf .fa3/hopper/instantiations
cp tests/data/hopperprobe/fa3_fwd/commit.txt .fa3/COMMIT
