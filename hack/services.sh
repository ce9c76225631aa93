#!/usr/bin/env bash
# Builds or installs every service `make test` starts; all cached outside the repo, so a warm run takes seconds.
# Debian packages first, one apt at a time. Then three independent builds run side by side, each into its own log,
# printed with its wall time as it ends: the Go binaries (versitygw, then the test cluster), the llama.cpp server
# wheel and the container images. On 2 cores the compilers share the CPU; what running them together buys is that
# one build's downloads and single-threaded links overlap another's compiles.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for script in images/install prometheus/install clang/install chromium/install; do
  bash "hack/$script.sh"
done

logs="${KERNELGEN_CACHE:-$HOME/.cache/kernelgen}/services-logs"
mkdir -p "$logs"
declare -A name_of started
start() {  # name command...
  local name=$1; shift
  "$@" >"$logs/$name.log" 2>&1 &
  name_of[$!]=$name
  started[$name]=$SECONDS
}
start go-binaries bash -c 'bash hack/s3/build.sh && bash hack/testenv/build.sh'
start llama-server bash hack/llama-server/build.sh
start images bash hack/images/build.sh

failed=()
while [[ ${#name_of[@]} -gt 0 ]]; do
  rc=0
  wait -n -p done_pid "${!name_of[@]}" || rc=$?
  name=${name_of[$done_pid]}
  unset "name_of[$done_pid]"
  took=$((SECONDS - started[$name]))
  if [[ $rc -eq 0 ]]; then
    printf '== %s: done in %dm%02ds (log: %s)\n' "$name" $((took / 60)) $((took % 60)) "$logs/$name.log" >&2
    tail -n 3 "$logs/$name.log" >&2
  else
    printf '== %s: FAILED (exit %d) after %dm%02ds; its log:\n' "$name" "$rc" $((took / 60)) $((took % 60)) >&2
    tail -n 150 "$logs/$name.log" >&2
    failed+=("$name")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "services: ${failed[*]} failed (full logs in $logs)" >&2
  exit 1
fi
