#!/usr/bin/env bash
# Runs govulncheck on the module with the toolchain go.mod pins, against a
# database built here from the Go vulnerability database's own module
# (golang.org/x/vulndb, fetched through the module proxy like any module),
# so that it needs no access to vuln.go.dev:
#   go mod download -json golang.org/x/vulndb@latest   -> its data/osv/*.json
#   go run golang.org/x/vulndb/cmd/indexdb@THAT -vulns DIR/data/osv -out DB
#   go run golang.org/x/vuln/cmd/govulncheck@v1.9.0 -db file://DB ./...
# Exit status: 0 when no vulnerability is reachable from the code (the
# call graph: a vulnerable function the binary never calls is listed, not
# counted), 1 when one is (govulncheck's 3, passed on by go run as 1; its
# report says "Your code is affected by N vulnerabilities") or on another
# error. When the
# database cannot be had (no module proxy), it says so and exits 0, unless
# VULNCHECK_REQUIRED=1.
#   scripts/vulncheck.sh            (VULNDB=DIR reuses a database built before)
set -euo pipefail
cd "$(dirname "$0")/.."
govulncheck_version=v1.9.0
export GOTOOLCHAIN=${GOTOOLCHAIN_VULNCHECK:-auto} # the toolchain go.mod pins: its standard library is what ships
db=${VULNDB:-}
if [ -z "$db" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  db=$tmp/vulndb
  # Outside the module, so that nothing touches go.mod.
  if ! info=$(cd "$tmp" && go mod download -json golang.org/x/vulndb@latest 2>&1); then
    msg="the Go vulnerability database (module golang.org/x/vulndb) cannot be fetched: $(tr '\n' ' ' <<<"$info" | cut -c1-300)"
    if [ "${VULNCHECK_REQUIRED:-}" = 1 ]; then echo "vulncheck: FAILED: $msg" >&2; exit 1; fi
    echo "vulncheck: SKIPPED: $msg" >&2
    exit 0
  fi
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$info")
  version=$(sed -n 's/^[[:space:]]*"Version": "\(.*\)",\{0,1\}$/\1/p' <<<"$info")
  [ -d "$dir/data/osv" ] || { echo "vulncheck: FAILED: golang.org/x/vulndb@$version has no data/osv in $dir" >&2; exit 1; }
  echo "vulncheck: database golang.org/x/vulndb@$version ($(find "$dir/data/osv" -name '*.json' | wc -l) entries)"
  (cd "$tmp" && go run "golang.org/x/vulndb/cmd/indexdb@$version" -vulns "$dir/data/osv" -out "$db")
fi
echo "vulncheck: $(go version) (go.mod pins $(sed -n 's/^toolchain //p' go.mod))"
go run "golang.org/x/vuln/cmd/govulncheck@$govulncheck_version" -db "file://$db" ./...
