#!/usr/bin/env bash
# Builds the release binaries: static referee executables for linux/amd64
# and linux/arm64, and their SHA256SUMS.
#   scripts/release.sh [VERSION] [DIR]   (default: git describe; ./dist)
# writes DIR/referee-VERSION-linux-amd64, DIR/referee-VERSION-linux-arm64
# and DIR/SHA256SUMS (check with: cd DIR && sha256sum -c SHA256SUMS).
#
# It installs nothing. It refuses a Go older than go.mod's toolchain line
# (scripts/check-toolchain.sh: run it with GOTOOLCHAIN=auto, or the pinned
# version, to have the go command fetch that one). It needs Go, gcc, and for arm64 a cross C compiler
# with a static C library, because SQLite comes in through cgo: on Debian
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross
# (set CC_ARM64 for another compiler). An architecture whose compiler is
# missing is reported and skipped; the script then exits 1 after building
# the others, so a release is never silently incomplete.
set -euo pipefail
cd "$(dirname "$0")/.."
# A release is built with the patched toolchain go.mod pins, never older.
scripts/check-toolchain.sh
version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}
dir=${2:-dist}
mkdir -p "$dir"
rm -f "$dir/SHA256SUMS"
export REFEREE_VERSION=$version
missing=0
built=()
for arch in amd64 arm64; do
  cc=gcc
  if [ "$arch" != "$(go env GOHOSTARCH)" ]; then
    case $arch in
      arm64) cc=${CC_ARM64:-aarch64-linux-gnu-gcc} ;;
      amd64) cc=${CC_AMD64:-x86_64-linux-gnu-gcc} ;;
    esac
  fi
  if ! command -v "$cc" >/dev/null; then
    echo "release: skipping linux/$arch: the C compiler $cc is not installed (Debian: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross, or set CC_ARM64)" >&2
    missing=1
    continue
  fi
  out=$dir/referee-$version-linux-$arch
  GOOS=linux GOARCH=$arch CC=$cc scripts/build-static.sh "$out"
  built+=("$(basename "$out")")
done
if [ ${#built[@]} -gt 0 ]; then
  (cd "$dir" && sha256sum "${built[@]}" > SHA256SUMS)
  echo "release: $dir/SHA256SUMS"
  cat "$dir/SHA256SUMS"
fi
exit $missing
