#!/usr/bin/env bash
# Install Debian's clang (the simulator is tested under clang++ as well as g++). Idempotent.
set -euo pipefail
if command -v clang++ >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends clang
clang++ --version | head -1
