#!/usr/bin/env bash
# Builds a static referee binary (SQLite linked in through cgo, glibc
# linked statically, no shared library needed at run time):
#   scripts/build-static.sh [OUT]        (default ./referee)
# Environment:
#   GOARCH, CC           another architecture (scripts/release.sh sets them)
#   REFEREE_VERSION      the version `referee version` prints (default: git
#                        describe, else "devel"); with the commit and date it
#                        is stamped with -ldflags -X, so that a build without
#                        .git (a source archive, a container build) still
#                        says what it is.
# The Containerfile uses it; CI runs it and checks the result.
set -euo pipefail
out=${1:-./referee}
cd "$(dirname "$0")/.."
version=${REFEREE_VERSION:-}
commit=${REFEREE_COMMIT:-}
date=${REFEREE_DATE:-}
if [ -z "$version" ] && git rev-parse --git-dir >/dev/null 2>&1; then
  version=$(git describe --tags --always --dirty 2>/dev/null || true)
fi
if [ -z "$commit" ] && git rev-parse --git-dir >/dev/null 2>&1; then
  commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
  date=$(git log -1 --format=%cI 2>/dev/null || true)
fi
version=${version:-devel}
stamp="-X main.stampVersion=$version -X main.stampCommit=$commit -X main.stampDate=$date"
CGO_ENABLED=1 go build -trimpath \
  -tags 'osusergo netgo sqlite_omit_load_extension' \
  -ldflags "-s -w $stamp -linkmode external -extldflags -static" \
  -o "$out" ./cmd/referee 2> >(grep -v 'statically linked applications requires at runtime' >&2)
if file "$out" 2>/dev/null | grep -q 'dynamically linked'; then
  echo "build-static: $out is dynamically linked" >&2
  exit 1
fi
if [ "${GOARCH:-$(go env GOHOSTARCH)}" = "$(go env GOHOSTARCH)" ] && ldd "$out" >/dev/null 2>&1; then
  echo "build-static: $out is dynamically linked" >&2
  exit 1
fi
echo "build-static: $out ($(du -h "$out" | cut -f1), static, version $version)"
