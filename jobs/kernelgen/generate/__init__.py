"""Generation: the engine protocol and three engines (vllm, openai, transformers). A library below bench/ and
cot/: it knows nothing of their specs beyond the generator block (BenchRun's generate stage is bench/generate_stage.py).

Engines are imported lazily (torch, transformers and vllm are heavy, and vllm exists only on GPU/NPU images).
"""
from __future__ import annotations

from typing import Any

from .engine import (
    Completion,
    Engine,
    Prompt,
    SamplingParams,
    sample_seed,
    split_reasoning,
)

ENGINES = ("vllm", "openai", "transformers")


def sampling_from_spec(sampling: Any, stop: tuple[str, ...] = ()) -> SamplingParams:
    """SamplingParams from a spec's `sampling` block (n, temperature, topP, maxTokens, seed)."""
    return SamplingParams(n=sampling.n, temperature=sampling.temperature, top_p=sampling.top_p,
                          max_tokens=sampling.max_tokens, seed=sampling.seed, stop=stop)


def make_engine(gen: Any, *, cache_dir: Any = None, **overrides: Any) -> Engine:
    """An engine for a spec's generator block (BenchRun.spec.generator, CoTBuild.spec.teacher)."""
    engine = gen.engine
    model_ref = gen.model
    label = model_ref.uri + (f"#{model_ref.gguf_file}" if model_ref.gguf_file else "")
    if model_ref.revision:
        label += f"@{model_ref.revision}"
    if engine == "openai":
        from .openai_engine import OpenAIEngine

        kw = dict(max_concurrency=getattr(gen, "max_concurrency", 16),
                  timeout_s=float(getattr(gen, "request_timeout_seconds", 600)))
        kw.update(overrides)
        return OpenAIEngine(gen.endpoint, model_ref.uri, **kw)
    from .models import resolve_model

    local = resolve_model(model_ref.uri, gguf_file=model_ref.gguf_file, tokenizer=model_ref.tokenizer,
                          cache_dir=cache_dir)
    if engine == "transformers":
        from .transformers_engine import TransformersEngine

        kw = {"batch_size": getattr(gen, "batch_size", None) or 16}
        kw.update(overrides)
        return TransformersEngine(local.dir, gguf_file=local.gguf_file, tokenizer=local.tokenizer, model_id=label, **kw)
    if engine == "vllm":
        from .vllm_engine import VLLMEngine

        kw = {"tensor_parallel_size": getattr(gen, "tensor_parallel_size", 1)}
        if getattr(gen, "batch_size", None):
            kw["max_num_seqs"] = gen.batch_size
        kw.update(overrides)
        return VLLMEngine(local.dir, gguf_file=local.gguf_file, tokenizer=local.tokenizer, model_id=label, **kw)
    raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")


__all__ = ["ENGINES", "Completion", "Engine", "Prompt", "SamplingParams", "make_engine", "sample_seed",
           "sampling_from_spec", "split_reasoning"]
