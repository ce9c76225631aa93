#!/usr/bin/env bash
# Starts the hermetic test cluster in the foreground (builds the binaries first if needed); Ctrl-C tears it down.
#   hack/testenv/start.sh [--ascend-nodes N] [--cpu-nodes N] [--workdir DIR] [--real-node]
# When the cluster is up it writes <workdir>/env.sh (KUBECONFIG, a PATH with the matching kubectl, the operator's
# tolerations for kwok's nodes) and prints it; `source` it in another shell. The file is removed at exit.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$(bash "$here/build.sh" | tail -1)"
exec python3 "$here/cluster.py" --bin-dir "$bin" "$@"
