#!/bin/sh
# card-truth.sh: on the GPU machine, one card's own time-model constants and
# the truth set's times measured on that same card, in one device call.
#
#   OUT=DIR sh scripts/card-truth.sh [PROGRAM-REGEX]
#
# The constants a probe gives can differ between two cards of one name (the
# old read_bw gave 4.59 and 3.22 TB/s under the same locked clocks: its own
# instructions ran at different speeds; tests/data/timeprobe/README.md), so
# a recording of kernel times is judged with constants probed on its card. Writes what
# scripts/timeprobe/card-probe.sh writes (the card, its timeprobe, the
# launch, in-flight and dispatch probes) and $OUT/truth (TRUTH_METRICS=time
# recordings of scripts/ncu-truth.py).
set -u
cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
OUT=$OUT sh scripts/timeprobe/card-probe.sh || exit 1
TRUTH_METRICS=time TRUTH_JOBS=${TRUTH_JOBS:-12} TRUTH_NO_PLAIN=1 TRUTH_NO_TAR=1 \
  python3 scripts/ncu-truth.py "${1:-}"
