#!/bin/sh
# card-probe.sh: on the GPU machine, the card's identity and its own
# time-model constants, for a recording made on the same card in the same
# device call (card-truth.sh, card-verify.sh).
#
#   OUT=DIR sh scripts/timeprobe/card-probe.sh
#
# Writes $OUT/card.txt (nvidia-smi -q: serial, UUID, power, clocks),
# $OUT/timeprobe (timeprobe.cu under Nsight Compute at the locked clocks, as
# timeprobe/run.sh's ncu_base.csv) and $OUT/more (card-more.sh).
set -u
cd "$(dirname "$0")"
: "${OUT:?set OUT}"
nvidia-smi -q > "$OUT/card.txt" 2>&1
R=$OUT/timeprobe
mkdir -p "$R"
nvcc -O3 -arch=sm_90 -o /tmp/card-probe timeprobe.cu > "$R/build.log" 2>&1 || exit 1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors_op_write.sum
ncu --metrics "$M" --csv /tmp/card-probe > "$R/ncu_base.csv" 2> "$R/ncu_base.err"
OUT=$OUT sh card-more.sh
