#!/usr/bin/env bash
# gpu.sh: the one script to run on the GPU machine.
#
#   bash scripts/fetch-gpu-deps.sh    # first, on the development machine
#   bash scripts/gpu.sh               # then, on the GPU machine, with .deps/
#
# The GPU machine has gcc, meson, ninja, pkg-config, python3, the CUDA
# toolkit and a driver, but no -dev packages for jansson, inih or cmocka
# (and no libinih.so.1 at all). Their headers, .pc files and shared libraries
# come from .deps/, which scripts/fetch-gpu-deps.sh fills from Debian's
# packages and which is carried along with the work tree (it is git-ignored).
# gpulint is built there without libclang and cairo, and `meson test --suite
# gpu` runs the GPU suite. On this machine a test that skips (exit 77, "no
# GPU") is a failure: the point of running here is that the GPU is present.
#
# Logs go to "$OUT" when it is set (the device runner brings that folder
# back), else to build-gpu/gpu-logs/. The last line is
# "gpu: N passed, N failed, N skipped".
#
# Stages (GPULINT_GPU_STAGES, default "suite verify"):
#   suite    `meson test --suite gpu` (the occupancy engine against the runtime)
#   verify   `gpulint verify` with the predictions made on the development
#            machine (tests/data/verify/predictions-<model>.json, the bundled
#            GPU model `gpulint devices` names for this card: this build has
#            no libclang), text and JSON to $OUT/verify-<device>.{txt,json},
#            the measured model to $OUT/<device>-measured.ini
#
# Environment: CUDA_HOME (default /usr/local/cuda), GPULINT_GPU_BUILD (the
# build folder, default build-gpu), GPULINT_GPU_ALLOW_SKIP=1 (accept skips,
# to try the script on a machine without a GPU), GPULINT_VERIFY_ARGS (extra
# arguments for verify).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BUILD=${GPULINT_GPU_BUILD:-build-gpu}
LOGS=${OUT:-$ROOT/$BUILD/gpu-logs}
mkdir -p "$LOGS"
# shellcheck source=scripts/gpu-env.sh
. "$ROOT/scripts/gpu-env.sh"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  # The device copy of the tree may carry an older .git: the caller names the commit.
  echo "commit: ${GPULINT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
  echo "host: $(uname -srm)"
  echo "nvcc: $(nvcc --version 2>/dev/null | tail -1 || echo 'not found')"
  echo "deps:"
  sed 's/^/  /' "$DEPS/PACKAGES" 2>/dev/null || true
  echo "nvidia-smi:"
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv 2>&1 |
    sed 's/^/  /' || true
} | tee "$LOGS/gpu-machine.txt"

opts=(-Dlibclang=disabled -Dcharts=disabled -Dtests=enabled -Dtoolkit_dir="$CUDA_HOME")
if grep -q "option('gpu_tests'" meson_options.txt; then opts+=(-Dgpu_tests=enabled); fi
mkdir -p "$BUILD"
setup_log=$ROOT/$BUILD-setup.txt
if [ -f "$BUILD/build.ninja" ]; then
  meson setup --reconfigure "$BUILD" "${opts[@]}" >"$setup_log" 2>&1 || setup_rc=$?
else
  meson setup "$BUILD" "${opts[@]}" >"$setup_log" 2>&1 || setup_rc=$?
fi
if [ "${setup_rc:-0}" -ne 0 ]; then
  cp "$setup_log" "$LOGS/meson-setup.txt"
  tail -30 "$setup_log"
  echo "gpu: 0 passed, 1 failed"
  exit 1
fi
sed -n '/Features/,$p' "$setup_log"

STAGES=" ${GPULINT_GPU_STAGES:-suite verify} "
rc=0
meson compile -C "$BUILD" 2>&1 | tail -5 || rc=1
if [ "$rc" -eq 0 ]; then
  { echo "gpulint devices:"; "$BUILD/src/gpulint" devices 2>&1 | sed 's/^/  /'; } \
    >>"$LOGS/gpu-machine.txt" || true
fi
if [ "$rc" -eq 0 ] && [[ $STAGES == *" suite "* ]]; then
  rm -f "$BUILD"/meson-logs/gpu.*
  meson test -C "$BUILD" --suite gpu --print-errorlogs --logbase gpu || rc=$?
  cp "$BUILD"/meson-logs/gpu.* "$LOGS/" 2>/dev/null || true
fi
vrc=0
if [ "$rc" -eq 0 ] && [[ $STAGES == *" verify "* ]]; then
  dev=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 |
    tr 'A-Z' 'a-z' | sed -E 's/nvidia //; s/[^a-z0-9]+/-/g; s/-+$//')
  arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
  model=$("$BUILD/src/gpulint" devices --format json 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)[0].get("model") or "")' 2>/dev/null || true)
  preds=tests/data/verify/predictions-${model:-none}.json
  pargs=()
  [ -f "$preds" ] && pargs=(--predictions "$preds")
  vlog=$LOGS/verify-$dev-log.txt
  smi() { nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv,noheader 2>&1 | sed "s/^/  $1: /"; }
  { echo "nvidia-smi clocks.sm, clocks.max.sm, clocks.mem, power.draw, temperature.gpu:"; smi before; } >"$vlog"
  # The first run builds the kernels (gpulint's own build is not counted).
  rm -rf "${GPULINT_CACHE_DIR:-$HOME/.cache/gpulint}/verify"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$BUILD/src/gpulint" verify "${pargs[@]}" --json "$LOGS/verify-$dev.json" \
    --save-model "$LOGS/$dev-measured.ini" ${GPULINT_VERIFY_ARGS:-} \
    >"$LOGS/verify-$dev.txt" 2>"$BUILD/verify.err" || vrc=$?
  t1=$(date +%s.%N)
  smi after >>"$vlog"
  { echo "stderr of the first run:"; sed 's/^/  /' "$BUILD/verify.err"; } >>"$vlog"
  # Then twice with the kernels built: the run a user repeats (with and
  # without Nsight Compute's replay).
  t2=$(date +%s.%N)
  "$BUILD/src/gpulint" verify "${pargs[@]}" --counters off >/dev/null 2>&1 || true
  t3=$(date +%s.%N)
  "$BUILD/src/gpulint" verify "${pargs[@]}" >/dev/null 2>&1 || true
  t4=$(date +%s.%N)
  python3 - "$t0" "$t1" "$t2" "$t3" "$t4" >>"$vlog" <<'PY'
import sys
t = [float(x) for x in sys.argv[1:]]
print(f"wall time: first run (kernels built, counters auto) {t[1]-t[0]:.1f} s; "
      f"built, counters off {t[3]-t[2]:.1f} s; built, counters auto {t[4]-t[3]:.1f} s")
PY
  tail -2 "$vlog"
  tail -1 "$LOGS/verify-$dev.txt" || true
  echo "verify: exit status $vrc"
fi

python3 - "$BUILD/meson-logs/gpu.json" "$rc" "${GPULINT_GPU_ALLOW_SKIP:-0}" "$STAGES" "$vrc" <<'EOF'
import json, sys
log, rc, allow_skip = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
stages, vrc = sys.argv[4].split(), int(sys.argv[5])
p = f = s = 0
try:
    for line in open(log):
        t = json.loads(line)
        out = (t.get("stdout") or "").strip().splitlines()
        last = out[-1] if out else ""
        print(f"{t['result']:5} {t['name']}  {last}")
        if t["result"] == "OK":
            p += 1
        elif t["result"] == "SKIP":
            s += 1
            if not allow_skip:
                print(f"  a GPU test skipped on the GPU machine: {last}")
                f += 1
        else:
            f += 1
except FileNotFoundError:
    if "suite" in stages:
        print("no test log (the build failed?)")
if "verify" in stages:
    if vrc == 0:
        p += 1
    else:
        f += 1
        print(f"FAIL  verify (exit status {vrc})")
if p + f + s == 0 or rc != 0 and f == 0:
    f += 1
print(f"gpu: {p} passed, {f} failed, {s} skipped")
sys.exit(1 if f else 0)
EOF
