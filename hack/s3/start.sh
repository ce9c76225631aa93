#!/usr/bin/env bash
# Start a local versitygw S3 server for manual use (tests start their own through tests/conftest.py).
# Usage: eval "$(bash hack/s3/start.sh [DATA_DIR] [PORT])"  -> exports KERNELGEN_S3_ENDPOINT, AWS_* and VERSITYGW_PID.
# Stop it with: kill "$VERSITYGW_PID"
set -euo pipefail
BIN="$(bash "$(dirname "$0")/build.sh")"
DATA="${1:-${TMPDIR:-/tmp}/kernelgen-s3}"
PORT="${2:-7070}"
ACCESS="${AWS_ACCESS_KEY_ID:-kernelgen}"
SECRET="${AWS_SECRET_ACCESS_KEY:-kernelgen-secret}"
mkdir -p "$DATA/data" "$DATA/meta"
SIDECAR=()
if ! python3 -c "import os,sys; os.setxattr(sys.argv[1], 'user.kg', b'1')" "$DATA/data" 2>/dev/null; then
  SIDECAR=(--sidecar "$DATA/meta")   # no xattrs on this file system: keep metadata beside the data
fi
setsid "$BIN" --access "$ACCESS" --secret "$SECRET" --port "127.0.0.1:$PORT" --quiet posix "${SIDECAR[@]}" "$DATA/data" \
  >"$DATA/versitygw.log" 2>&1 &
PID=$!
for _ in $(seq 100); do
  if (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
  sleep 0.1
done
kill -0 "$PID" 2>/dev/null || { cat "$DATA/versitygw.log" >&2; exit 1; }
echo "export KERNELGEN_S3_ENDPOINT=http://127.0.0.1:$PORT AWS_ACCESS_KEY_ID=$ACCESS AWS_SECRET_ACCESS_KEY=$SECRET AWS_REGION=us-east-1 VERSITYGW_PID=$PID"
