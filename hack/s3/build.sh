#!/usr/bin/env bash
# Build the versitygw S3 server from the Go module proxy into a version-keyed cache outside the repo,
# so CI and later sessions reuse it. Prints the binary path. No-op when already built.
set -euo pipefail
VERSITYGW_VERSION="${VERSITYGW_VERSION:-v1.8.0}"
CACHE="${KERNELGEN_CACHE:-$HOME/.cache/kernelgen}"
BIN_DIR="$CACHE/bin/versitygw-$VERSITYGW_VERSION"
BIN="$BIN_DIR/versitygw"
if [[ -x "$BIN" ]]; then
  echo "$BIN"
  exit 0
fi
command -v go >/dev/null || { echo "build-versitygw: go toolchain not found" >&2; exit 1; }
mkdir -p "$BIN_DIR"
# Keep Go's caches beside the binary cache (not in the repo); -p=2 suits the 2-core machines.
export GOBIN="$BIN_DIR"
export GOFLAGS="${GOFLAGS:--p=2}"
export CGO_ENABLED=0
echo "build-versitygw: go install github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" >&2
go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" >&2
test -x "$BIN"
echo "$BIN"
