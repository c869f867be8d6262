#!/usr/bin/env bash
# verify-predictions.sh: on a machine with libclang, write gpulint's
# predictions for the reference kernels, for `gpulint verify --predictions`
# on a GPU machine whose gpulint has no libclang (scripts/gpu.sh uses them).
# One file per GPU model: the predicted times are that model's.
#
#   bash scripts/verify-predictions.sh [MODEL...]     # default: h100-sxm h200
#
# Output: tests/data/verify/predictions-<model>.json. Rerun it after any
# change to what gpulint predicts for kernels/: nothing fails when the files
# fall behind (tests/footprint_counts.py checks only their compulsory bytes
# against hand counts), and a GPU run then judges the older predictions.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
GPULINT=${GPULINT:-build/src/gpulint}
[ $# -gt 0 ] || set -- h100-sxm h200
mkdir -p tests/data/verify
for model in "$@"; do
  GPULINT_NO_DEVICE=1 "$GPULINT" kernels/*.cu --gpu "$model" --format json \
    >"tests/data/verify/predictions-$model.json"
  echo "verify-predictions: tests/data/verify/predictions-$model.json"
done
