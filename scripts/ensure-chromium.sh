#!/usr/bin/env bash
# Playwright drives Debian's Chromium: browser downloads are not possible on this network.
set -euo pipefail
CHROMIUM="${SOLSERVER_CHROMIUM:-/usr/bin/chromium}"
if [[ -x "$CHROMIUM" ]]; then exit 0; fi
if [[ "$(id -u)" == 0 ]]; then
  echo "==> installing Chromium from apt"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
elif command -v sudo >/dev/null 2>&1; then
  echo "==> installing Chromium from apt (sudo)"
  sudo apt-get update -qq >/dev/null
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "error: Chromium not found at $CHROMIUM; install it (apt-get install -y chromium) or set SOLSERVER_CHROMIUM" >&2
  exit 1
fi
