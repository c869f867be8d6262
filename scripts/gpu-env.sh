# gpu-env.sh: sourced by the scripts that build gpulint on the GPU machine
# (scripts/gpu.sh, benchmarks/device.sh). That machine has no -dev packages
# for jansson, inih, xxhash or cmocka: their headers, .pc files and shared
# libraries come from .deps/ (scripts/fetch-gpu-deps.sh, carried along with
# the work tree). Needs ROOT and BUILD set; exports PKG_CONFIG_PATH,
# PKG_CONFIG_LIBDIR, LD_LIBRARY_PATH and PATH (nvcc first).
DEPS=$ROOT/.deps
LIBDIR=$DEPS/usr/lib/x86_64-linux-gnu
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [ ! -d "$LIBDIR/pkgconfig" ]; then
  echo "$(basename "$0"): $LIBDIR/pkgconfig is missing: run scripts/fetch-gpu-deps.sh on the" \
    "development machine and carry .deps/ along" >&2
  exit 2
fi

# The .pc files say prefix=/usr (cmocka's spells /usr out in Libs and
# Cflags): point them at .deps/usr, in a copy, since the absolute path of the
# work tree differs between machines.
PC=$ROOT/$BUILD-pkgconfig
rm -rf "$PC"
mkdir -p "$PC"
for f in "$LIBDIR"/pkgconfig/*.pc; do
  sed -e "s|^prefix=/usr\$|prefix=$DEPS/usr|" -e "s|-L/usr/|-L$DEPS/usr/|g" \
    -e "s|-I/usr/|-I$DEPS/usr/|g" "$f" >"$PC/$(basename "$f")"
done
# Only these .pc files: the build needs no other pkg-config package once
# libclang and cairo are off, and the system's must not shadow .deps/.
export PKG_CONFIG_PATH=$PC
export PKG_CONFIG_LIBDIR=$PC
export LD_LIBRARY_PATH=$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$CUDA_HOME/bin:$PATH
