#!/usr/bin/env bash
# Installs Debian's chromium for the headless-browser check of report.html
# (runtime/htmlreport TestReportInChromium, run by `go test ./...` after the
# steps; under CI=true that test fails when there is no browser). Runs as
# root without standard input.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "   chromium present: $(chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
echo "   installing chromium (apt-get)"
$sudo apt-get update </dev/null
$sudo apt-get install -y chromium </dev/null
echo "   chromium installed: $(chromium --version 2>/dev/null || echo unknown version)"
