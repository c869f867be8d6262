#!/usr/bin/env bash
# verify-predictions.sh: on a machine with libclang, write gpulint's
# predictions for the reference kernels, for `gpulint verify --predictions`
# on a GPU machine whose gpulint has no libclang (scripts/gpu.sh uses them).
#
#   bash scripts/verify-predictions.sh [ARCH...]     # default: sm_90
#
# Output: tests/data/verify/predictions-<arch>.json. The test suite checks
# that the file matches what this gpulint predicts (tests/verify_contract.py).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
GPULINT=${GPULINT:-build/src/gpulint}
[ $# -gt 0 ] || set -- sm_90
mkdir -p tests/data/verify
for arch in "$@"; do
  GPULINT_NO_DEVICE=1 "$GPULINT" kernels/*.cu --arch "$arch" --format json \
    >"tests/data/verify/predictions-$arch.json"
  echo "verify-predictions: tests/data/verify/predictions-$arch.json"
done
