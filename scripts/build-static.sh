#!/usr/bin/env bash
# Builds a static referee binary (SQLite linked in through cgo, glibc
# linked statically, no shared library needed at run time):
#   scripts/build-static.sh [OUT]        (default ./referee)
# The Containerfile uses it; CI runs it and checks the result.
set -euo pipefail
out=${1:-./referee}
cd "$(dirname "$0")/.."
CGO_ENABLED=1 go build -trimpath \
  -tags 'osusergo netgo sqlite_omit_load_extension' \
  -ldflags '-s -w -linkmode external -extldflags -static' \
  -o "$out" ./cmd/referee 2> >(grep -v 'statically linked applications requires at runtime' >&2)
if ldd "$out" >/dev/null 2>&1; then
  echo "build-static: $out is dynamically linked" >&2
  exit 1
fi
echo "build-static: $out ($(du -h "$out" | cut -f1), static)"
