#!/usr/bin/env bash
# fetch-gpu-deps.sh: on the development machine (Debian 12, network to the
# Debian archive), download the Debian packages of the three libraries that
# the GPU machine lacks headers for -- jansson, inih, cmocka, xxhash -- and unpack
# them into .deps/ (git-ignored). Carry .deps/ along to the GPU machine, where
# scripts/gpu.sh builds against it.
#
#   bash scripts/fetch-gpu-deps.sh        # then: .deps/usr/{include,lib/...}
#
# Nothing is installed on this machine: `apt-get download` only fetches the
# .deb files and `dpkg -x` unpacks them into the folder.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PACKAGES=(libjansson-dev libjansson4 libinih-dev libinih1 libcmocka-dev libcmocka0 libxxhash-dev libxxhash0)
DEPS=$PWD/.deps

debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
chmod 777 "$debs" # apt-get download writes through the unprivileged _apt user

SUDO=()
[ "$(id -u)" -eq 0 ] || SUDO=(sudo)
# apt-get download needs the package lists; fetch them once if there are none.
if ! apt-cache show "${PACKAGES[0]}" >/dev/null 2>&1; then
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
fi

(cd "$debs" && apt-get download "${PACKAGES[@]}")

rm -rf "$DEPS"
mkdir -p "$DEPS"
for deb in "$debs"/*.deb; do
  dpkg -x "$deb" "$DEPS"
  dpkg-deb -f "$deb" Package Version | paste -sd' ' >>"$DEPS/PACKAGES"
done

echo "fetch-gpu-deps: unpacked into $DEPS:"
sed 's/^/  /' "$DEPS/PACKAGES"
ls "$DEPS/usr/lib/x86_64-linux-gnu/pkgconfig"
