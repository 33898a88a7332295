#!/usr/bin/env bash
# Installs the independent MCP client of runtime/mcp's TestTypeScriptClient:
# the official TypeScript SDK (@modelcontextprotocol/sdk, pinned by
# runtime/mcp/testdata/tsclient/package-lock.json) under Node.js, which
# the machine image ships (Node.js 20). Under CI=true that test fails when
# node or the SDK is missing. Runs as root without standard input.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
cd "$(dirname "$0")/../../runtime/mcp/testdata/tsclient"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_install mcp-ts-client nodejs npm
fi
echo "   node $(node --version), npm $(npm --version)"
npm ci --no-audit --no-fund --loglevel=error </dev/null
echo "   $(node -e 'console.log("@modelcontextprotocol/sdk " + require("./node_modules/@modelcontextprotocol/sdk/package.json").version)') installed"
