#!/usr/bin/env bash
# Debian packages for building images without Docker (mmdebstrap, buildah) and for the test cluster's real node
# (CNI plugins; libseccomp for the runc that hack/testenv/build.sh builds). Idempotent: does nothing when every tool
# is there.
set -euo pipefail
need=()
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v buildah >/dev/null || need+=(buildah)
[[ -x /usr/lib/cni/bridge ]] || need+=(containernetworking-plugins)
# runc is built from the Go module proxy (hack/testenv/build.sh) with seccomp support.
pkg-config --exists libseccomp 2>/dev/null || need+=(libseccomp-dev pkg-config)
[[ ${#need[@]} -eq 0 ]] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
