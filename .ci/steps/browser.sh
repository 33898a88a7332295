#!/usr/bin/env bash
# Installs Debian's chromium for the headless-browser check of report.html
# (runtime/htmlreport TestReportInChromium, run by `go test ./...` after the
# steps; under CI=true that test fails when there is no browser). Runs as
# root without standard input.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
if command -v chromium >/dev/null 2>&1; then
  echo "   chromium present: $(chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi
apt_install browser chromium
echo "   chromium installed: $(chromium --version 2>/dev/null || echo unknown version)"
