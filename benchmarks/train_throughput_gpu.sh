#!/usr/bin/env bash
# Run benchmarks/train_throughput.py on a lent GPU machine (no network there): the train stack's wheels and
# SmolLM2's tokenizer files are carried in .kgwheels/ (see the header of train_throughput.py), installed into
# a private target folder so the machine's own packages stay as they are.
#   usage: bash benchmarks/train_throughput_gpu.sh VARIANTS [extra args for train_throughput.py]
set -euo pipefail
W=${KG_WHEELS:-.kgwheels}
PY=$(python3 -c 'import sys; print(f"py{sys.version_info[0]}{sys.version_info[1]}")')
LIB=/tmp/kg-pylib
if [ ! -d "$LIB/trl" ]; then
  python3 -m pip install -q --no-deps --no-index --target "$LIB" \
    "$W"/trl-*.whl "$W"/datasets-*.whl "$W"/dill-*.whl "$W"/multiprocess-*-"$PY"-*.whl "$W"/liger_kernel-*.whl \
    ${KG_FULL_STACK:+"$W"/transformers-*.whl "$W"/huggingface_hub-*.whl "$W"/tokenizers-*.whl} 2>&1 | grep -v WARNING || true
fi
export PYTHONPATH="$LIB:$PWD/jobs${PYTHONPATH:+:$PYTHONPATH}"
export KERNELGEN_BENCH_TOKENIZER="$PWD/$W/tok" HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
python3 -c 'import torch, transformers, trl; print("torch", torch.__version__, "transformers", transformers.__version__, "trl", trl.__version__)'
python3 benchmarks/train_throughput.py --variants "$1" "${@:2}"
