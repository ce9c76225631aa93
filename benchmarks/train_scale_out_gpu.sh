#!/usr/bin/env bash
# Run benchmarks/train_scale_out.py on a lent multi-GPU machine (no network there). The train stack's wheels
# (trl, datasets, dill, multiprocess, liger-kernel, transformers, tokenizers, peft, pydantic and its parts) are
# carried in $KG_WHEELS and installed into a private folder, so the machine's own packages stay as they are;
# SmolLM2's tokenizer files are carried in $KG_TOKENIZER.
#   usage: KG_TREE=<folder with jobs/ and benchmarks/> bash benchmarks/train_scale_out_gpu.sh EXPERIMENTS [OUTDIR]
set -uo pipefail
TREE=${KG_TREE:-$PWD}
W=${KG_WHEELS:-.whl}
OUTDIR=${2:-${OUT:-/tmp}}
LIB=/tmp/kg-site
if [ ! -d "$LIB/trl" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$LIB" "$W"/*.whl \
    2>&1 | grep -v WARNING
fi
export PYTHONPATH="$LIB:$TREE/jobs" HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
# NVLink multicast stays off on these machines (KINDS.md): children inherit these.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
python3 -c 'import torch, transformers, trl, accelerate, peft, liger_kernel, datasets, importlib.metadata as m; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version(), "transformers", transformers.__version__, "trl", trl.__version__, "accelerate", accelerate.__version__, "peft", peft.__version__, "liger-kernel", m.version("liger-kernel"), "datasets", datasets.__version__)'
timeout "${KG_TIMEOUT:-570}" python3 "$TREE/benchmarks/train_scale_out.py" "$1" --root /tmp/tso --tokenizer "${KG_TOKENIZER:-$TREE/tok}" \
  --out "$OUTDIR/results.jsonl"
