#!/bin/sh
# card-truth.sh: on the GPU machine, one card's own time-model constants and
# the truth set's times measured on that same card, in one device call.
#
#   OUT=DIR sh scripts/card-truth.sh [PROGRAM-REGEX]
#
# Two cards of one name can differ (timeprobe's read_bw ran at 4.59 and 3.22 TB/s
# under the same locked clocks), so a recording of kernel times is only
# comparable with constants probed on the card it was made on. Writes
# $OUT/card.txt (nvidia-smi -q: serial, UUID, power, clocks), $OUT/timeprobe
# (scripts/timeprobe/timeprobe.cu under Nsight Compute at the locked clocks,
# as timeprobe/run.sh's ncu_base.csv), $OUT/more (launchprobe.cu and
# mlpprobe.cu: what a launch that stores costs, DRAM against the bytes in
# flight) and $OUT/truth (TRUTH_METRICS=time recordings of
# scripts/ncu-truth.py).
set -u
cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
nvidia-smi -q > "$OUT/card.txt" 2>&1
R=$OUT/timeprobe
mkdir -p "$R"
(
  cd scripts/timeprobe || exit 1
  nvcc -O3 -arch=sm_90 -o /tmp/card-probe timeprobe.cu > "$R/build.log" 2>&1 || exit 1
  M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors_op_write.sum
  ncu --metrics "$M" --csv /tmp/card-probe > "$R/ncu_base.csv" 2> "$R/ncu_base.err"
)
OUT=$OUT sh scripts/timeprobe/card-more.sh
TRUTH_METRICS=time TRUTH_JOBS=${TRUTH_JOBS:-12} TRUTH_NO_PLAIN=1 TRUTH_NO_TAR=1 \
  python3 scripts/ncu-truth.py "${1:-}"
