#!/usr/bin/env bash
# Refuses a Go toolchain older than the one go.mod pins (its "toolchain"
# line): the security of a release is the toolchain's too (net/http,
# crypto/tls and html/template are compiled into the binary), so a binary
# is built only with a patched one. scripts/release.sh and the
# Containerfile's build run it.
#   scripts/check-toolchain.sh            (exit 0, or 1 saying what to do)
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(sed -n 's/^toolchain[[:space:]]*\(go[0-9][^[:space:]]*\).*/\1/p' go.mod)
if [ -z "$want" ]; then
  echo "check-toolchain: go.mod has no toolchain line; add one (e.g. toolchain go1.26.10) naming the patched Go release to build with" >&2
  exit 1
fi
have=$(go env GOVERSION)
# sort -V orders go1.26.9 before go1.26.10; the older of the two comes first.
if [ "$have" != "$want" ] && [ "$(printf '%s\n' "$want" "$have" | sort -V | head -n1)" = "$have" ]; then
  cat >&2 <<MSG
check-toolchain: this Go is $have, older than $want, which go.mod pins for its
security fixes (the standard library is compiled into the binary). Run the
build again with GOTOOLCHAIN=$want in the environment (or GOTOOLCHAIN=auto):
the go command then fetches $want from the module proxy, once (about 15 s);
or install $want.
MSG
  exit 1
fi
echo "check-toolchain: $have (go.mod pins $want or newer)"
