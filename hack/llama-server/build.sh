#!/usr/bin/env bash
# Build llama-cpp-python (with its OpenAI-compatible server) from source once and cache the wheels, so later
# installs take seconds. Used by the `openai` engine tests (tests/generate) as the real server.
#   hack/llama-server/build.sh            # build (if not cached) + install
# Cache: ${KERNELGEN_WHEELS:-~/.cache/kernelgen/wheels}. The build is CPU-only (2 jobs): 14 min on a cold 2-core machine
# with the multimodal library (mtmd), which the text-only server never loads (llama_cpp imports it lazily), so it is off.
set -euo pipefail
WHEELS="${KERNELGEN_WHEELS:-$HOME/.cache/kernelgen/wheels}"
VERSION="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
mkdir -p "$WHEELS"
if ! ls "$WHEELS"/llama_cpp_python-"$VERSION"-*.whl >/dev/null 2>&1; then
  echo "building llama-cpp-python $VERSION from source (cached in $WHEELS)..." >&2
  # GGML_NATIVE=OFF keeps the wheel portable across the CI machines of this kind; AVX2/FMA are assumed.
  CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAMA_CURL=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF}" \
  CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
    python -m pip wheel --no-deps --no-cache-dir -w "$WHEELS" "llama-cpp-python==$VERSION"
fi
# Its dependencies (and the server's) are in uv.lock's dev extra, installed by `make setup-python`: the wheel goes in
# alone, so nothing here resolves against what the registry serves today.
python -m pip install -q --no-deps --find-links "$WHEELS" "llama-cpp-python==$VERSION"
python -c "import llama_cpp, llama_cpp.server; print('llama-cpp-python', llama_cpp.__version__)"
