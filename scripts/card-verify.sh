#!/bin/sh
# card-verify.sh: on the GPU machine, one card's own time-model constants and
# `gpulint verify` on that same card, in one device call (see card-truth.sh
# for why). Needs .deps/ (scripts/fetch-gpu-deps.sh), as gpu.sh does.
#
#   OUT=DIR sh scripts/card-verify.sh
#
# Writes what scripts/timeprobe/card-probe.sh writes, then gpu.sh's verify
# stage (verify-<device>.{txt,json}, the measured model, the logs).
set -u
cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
OUT=$OUT sh scripts/timeprobe/card-probe.sh || exit 1
GPULINT_GPU_STAGES=verify OUT=$OUT bash scripts/gpu.sh
