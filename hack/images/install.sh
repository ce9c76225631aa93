#!/usr/bin/env bash
# Debian packages for building images without Docker (mmdebstrap, buildah) and for the test cluster's real node
# (containerd, runc, CNI plugins). Idempotent: does nothing when every tool is there.
set -euo pipefail
need=()
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v buildah >/dev/null || need+=(buildah)
command -v containerd >/dev/null || need+=(containerd)
command -v runc >/dev/null || need+=(runc)
[[ -x /usr/lib/cni/loopback ]] || need+=(containernetworking-plugins)
[[ ${#need[@]} -eq 0 ]] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
# The package starts a system containerd where systemd runs; the test node starts its own (own socket and state).
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet containerd 2>/dev/null; then
  $SUDO systemctl stop containerd || true
fi
