#!/usr/bin/env bash
# setup.sh: install what building and testing gpulint needs on Debian 12.
#
#   bash scripts/setup.sh
#
# Idempotent: when every package is already installed it changes nothing and
# does not touch the network. Runs apt-get as root, or through sudo when not
# root. The CUDA toolkit itself (nvcc, cuda_occupancy.h, libcudart_static) is
# not a Debian package: gpulint expects it at /usr/local/cuda (meson option
# toolkit_dir) or nvcc on PATH / $CUDA_HOME.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PACKAGES=(
  meson ninja-build pkg-config python3 git    # build system, test runner
  gcc g++                                     # C compiler; libstdc++ for __cxa_demangle
  libjansson-dev libinih-dev                  # JSON, model files
  libxxhash-dev                               # cache keys
  libcairo2-dev                               # charts (--plot)
  clang-22 llvm-22 libclang-22-dev            # libclang front end (llvm-config-22)
  libclang-rt-22-dev                          # libFuzzer and sanitizer runtimes for clang-22
  libcmocka-dev                               # unit tests
  valgrind                                    # memory checks in scripts/test.sh
  scdoc                                       # the gpulint(1) man page
  zsh                                         # the zsh completion's test
  cmake ccache                                # gpulint wrap as a CMake launcher, with ccache
  lld-22 wasi-libc libclang-rt-22-dev-wasm32  # the web page's WebAssembly build (clang-22)
  chromium                                    # the web page's browser test
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

# The browser test's driver, puppeteer-core, from npm at the version
# tests/web/package-lock.json pins (it downloads no browser: the test
# drives Debian's chromium). Skipped where npm is missing; the test then
# says it was skipped.
npm_deps() {
  if [ -d tests/web/node_modules/puppeteer-core ]; then
    return 0
  fi
  if command -v npm >/dev/null 2>&1; then
    echo "setup: npm ci in tests/web (puppeteer-core)"
    npm ci --prefix tests/web --no-audit --no-fund --loglevel=error
  else
    echo "setup: npm not found; the browser test will be skipped"
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages are installed"
  npm_deps
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  "${missing[@]}"
npm_deps
echo "setup: done"
