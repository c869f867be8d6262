#!/usr/bin/env bash
# demo.sh: install what is needed, build gpulint and run it on a bundled
# example with the default model -- the README's first command.
#
#   bash scripts/demo.sh [FILE.cu] [gpulint options...]
#
# Default: examples/transpose.cu. Without a GPU (or with GPULINT_NO_DEVICE=1)
# the target is the documented default, the H100 SXM model; with one, the
# local GPU. The build goes to build/ (meson's usual folder).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${GPULINT_DEMO_BUILD:-build}

bash scripts/setup.sh

# nvcc: $CUDA_HOME, PATH or /usr/local/cuda, as gpulint itself looks.
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  echo "demo: nvcc not found (install the CUDA toolkit at /usr/local/cuda or set CUDA_HOME);" \
    "gpulint needs it to compile FILE.cu (gpulint --ptxas-log works without it)" >&2
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
step() { # run quietly; show the output when it fails
  if ! "$@" >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "demo: failed: $*" >&2
    exit 1
  fi
}
if [ -f "$BUILD/build.ninja" ]; then
  step meson setup --reconfigure "$BUILD"
else
  step meson setup "$BUILD"
fi
echo "demo: building gpulint in $BUILD/"
step meson compile -C "$BUILD" src/gpulint:executable

if [ $# -eq 0 ]; then
  set -- examples/transpose.cu
fi
echo "\$ $BUILD/src/gpulint $*"
echo
rm -f "$log"
trap - EXIT
exec "$BUILD/src/gpulint" "$@"
