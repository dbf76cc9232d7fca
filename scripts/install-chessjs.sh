#!/usr/bin/env bash
# Installs chess.js (from the npm registry) into DIR, for the test that
# checks `referee export` with it (internal/referee, TestChessExportReadByChessJS,
# which reads REFEREE_CHESSJS=DIR). Run before the tests, as .ci/run does:
# the tests themselves never reach the network.
set -euo pipefail
dir=${1:?usage: scripts/install-chessjs.sh DIR}
mkdir -p "$dir"
npm install --no-audit --no-fund --silent --prefix "$dir" chess.js@1.4.0
test -d "$dir/node_modules/chess.js"
echo "chess.js installed in $dir; run the tests with REFEREE_CHESSJS=$dir"
