#!/usr/bin/env bash
# Runs pytest over the whole suite; fails when pytest fails or collects nothing (exit 5).
set -uo pipefail
cd "$(dirname "$0")/.."
python3 -m pytest "$@"
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests: failing" >&2
  exit 1
fi
exit "$rc"
