#!/usr/bin/env bash
# Install Debian's Prometheus server and promtool (used by tests/deploy). Idempotent: does nothing when both exist.
set -euo pipefail
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# --no-install-recommends: the server and promtool only, not the node exporter or the web assets' extras.
$SUDO apt-get install -y -qq --no-install-recommends prometheus
# The package enables a system service on hosts with systemd; tests start their own server, so stop it if it runs.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet prometheus 2>/dev/null; then
  $SUDO systemctl stop prometheus || true
fi
prometheus --version 2>&1 | head -1
