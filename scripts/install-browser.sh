#!/usr/bin/env bash
# Installs Debian's Chromium for the console's browser tests (test/console/*.test.ts drive it with playwright-core).
# Never a downloaded browser build: playwright-core downloads nothing, and `npx playwright install` is not used.
# Usage: scripts/install-browser.sh   (as root, or with sudo available)
set -euo pipefail

if [[ -x /usr/bin/chromium ]]; then
  echo "chromium is already installed: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi

run_as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

run_as_root apt-get update
# fonts-noto-cjk: the Simplified Chinese pages render with real glyphs in screenshots.
run_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-noto-cjk
echo "installed: $(/usr/bin/chromium --version)"
