#!/usr/bin/env bash
# Install Debian's headless-capable Chromium (the HTML report is checked in it: tests/bench/test_report_pages.py).
# Idempotent.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
chromium --version
