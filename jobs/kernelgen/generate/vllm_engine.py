"""`vllm` engine: vllm's offline `LLM` (vllm-ascend on NPU clusters, CUDA vllm on GPUs).

The production path: one process owns the model (tensor parallel over `tensor_parallel_size` devices) and
vllm's scheduler batches every request itself. Requests go in chunks so completions can be persisted while
the rest are still being generated; a chunk is large enough to keep the scheduler full.

vllm is imported lazily: it is not installable on the CPU development machines (its CUDA wheel pins another
torch), so this module must import without it. tests/generate/test_vllm_contract.py runs wherever it imports.
"""
from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .engine import Completion, Prompt, SamplingParams, sample_seed, split_reasoning


def vllm_available() -> tuple[bool, str]:
    try:
        import vllm  # noqa: F401
    except Exception as e:  # noqa: BLE001 - ImportError, or a broken CUDA/NPU install raising at import
        return False, f"vllm does not import here: {type(e).__name__}: {e}"[:300]
    return True, ""


class VLLMEngine:
    name = "vllm"

    def __init__(self, model_dir: str | Path, *, gguf_file: str | None = None, tokenizer: str | Path | None = None,
                 model_id: str | None = None, tensor_parallel_size: int = 1, chunk_size: int = 1024,
                 max_model_len: int | None = None, llm: Any = None, **llm_kwargs: Any):
        if llm is None:
            from vllm import LLM

            model = str(Path(model_dir) / gguf_file) if gguf_file else str(model_dir)
            kw: dict[str, Any] = {"tensor_parallel_size": tensor_parallel_size, "trust_remote_code": False}
            if tokenizer or gguf_file:
                # A GGUF file needs the tokenizer of its base model; default to the directory holding it.
                kw["tokenizer"] = str(tokenizer or model_dir)
            if max_model_len:
                kw["max_model_len"] = max_model_len
            kw.update(llm_kwargs)
            llm = LLM(model=model, **kw)
        self.llm = llm
        self.model_id = model_id or (f"{model_dir}#{gguf_file}" if gguf_file else str(model_dir))
        self.chunk_size = max(1, chunk_size)

    def _sampling(self, params: SamplingParams, n: int, seed: int | None):
        from vllm import SamplingParams as VSP

        kw: dict[str, Any] = dict(n=n, temperature=params.temperature, top_p=params.top_p if not params.greedy else 1.0,
                                  max_tokens=params.max_tokens, seed=seed)
        if params.stop:
            kw["stop"] = list(params.stop)
        return VSP(**kw)

    def render(self, prompt: Prompt) -> str:
        tok = self.llm.get_tokenizer()
        text = tok.apply_chat_template(prompt.messages, tokenize=False, add_generation_prompt=True)
        return text + prompt.assistant_prefix

    def requests(self, prompts: Sequence[Prompt], params: SamplingParams) -> list[tuple[Prompt, list[int], Any]]:
        """(prompt, sample indices, vllm SamplingParams) per request.

        With a run seed, one request per sample with that sample's own seed (so a resumed sample is the same
        sample); without one, one request per prompt with n = the samples it still needs.
        """
        out = []
        for p in prompts:
            if params.seed is None:
                out.append((p, list(p.samples), self._sampling(params, len(p.samples), None)))
            else:
                for s in p.samples:
                    out.append((p, [s], self._sampling(params, 1, sample_seed(params.seed, p.key, s))))
        return out

    def generate(self, prompts: Sequence[Prompt], params: SamplingParams) -> Iterator[Completion]:
        reqs = self.requests(prompts, params)
        for i in range(0, len(reqs), self.chunk_size):
            chunk = reqs[i:i + self.chunk_size]
            texts = [self.render(p) for p, _, _ in chunk]
            t0 = time.perf_counter()
            outs = self.llm.generate(texts, [sp for _, _, sp in chunk], use_tqdm=False)
            seconds = time.perf_counter() - t0
            for (p, samples, sp), ro in zip(chunk, outs):
                prompt_tokens = len(ro.prompt_token_ids or [])
                metrics = getattr(ro, "metrics", None)
                ttft = None
                if metrics is not None and getattr(metrics, "first_token_time", None) and \
                        getattr(metrics, "arrival_time", None):
                    ttft = metrics.first_token_time - metrics.arrival_time
                for s, co in zip(samples, ro.outputs):
                    text = p.assistant_prefix + co.text
                    reasoning, content = split_reasoning(text)
                    yield Completion(key=p.key, sample=s, text=text, content=content, reasoning=reasoning,
                                     prompt_tokens=prompt_tokens, completion_tokens=len(co.token_ids),
                                     finish_reason=co.finish_reason or "stop", seconds=seconds, ttft_seconds=ttft,
                                     seed=sp.seed, extra={"chunk": len(chunk)})

    def close(self) -> None:
        self.llm = None
