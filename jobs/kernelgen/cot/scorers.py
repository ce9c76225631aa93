"""Perplexity scorers behind one interface: `scores(texts) -> list[float]`.

- ngram: the in-repo character n-gram model, trained on the texts themselves and scored leave-one-out. Its
  absolute perplexity depends on the corpus size and the script (Chinese has thousands of characters), so it
  reports perplexity relative to the median of the batch it scores (1.0 = typical; `max: 3` drops records three
  times less predictable than the median): a percentile-style filter that needs no reference corpus.
- causal-lm: a local transformers causal LM (by default the teacher's own model files).
- vllm: prompt log-probabilities from an OpenAI-compatible vLLM server (`echo` + `logprobs` on /v1/completions).
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from .ngram_lm import CharNgramLM


class Scorer(Protocol):
    name: str

    def scores(self, texts: Sequence[str]) -> list[float]: ...

    def close(self) -> None:
        """Release connections or models (a no-op for in-process scorers)."""


class _InProcess:
    def close(self) -> None:
        pass


class NgramScorer(_InProcess):
    name = "ngram"

    def __init__(self, n: int = 3):
        self.n = n

    def scores(self, texts: Sequence[str]) -> list[float]:
        lm = CharNgramLM(self.n).fit(texts)
        raw = [lm.perplexity(t, leave_out=True) for t in texts]
        med = statistics.median(raw) if raw else 1.0
        return [r / med for r in raw]


class CausalLMScorer(_InProcess):
    name = "causal-lm"

    def __init__(self, model, tokenizer, max_tokens: int = 1024):
        self.model, self.tok, self.max_tokens = model, tokenizer, max_tokens

    def scores(self, texts: Sequence[str]) -> list[float]:
        import torch

        out = []
        for t in texts:
            enc = self.tok(t, return_tensors="pt", truncation=True, max_length=self.max_tokens).to(self.model.device)
            if enc["input_ids"].shape[1] < 2:
                out.append(float("inf"))
                continue
            with torch.no_grad():
                loss = self.model(**enc, labels=enc["input_ids"]).loss
            out.append(math.exp(float(loss)))
        return out


class VllmScorer:
    """Perplexity from an OpenAI-compatible server's echoed prompt log-probabilities (vLLM's /v1/completions with
    echo and logprobs). Requests go out `concurrency` at a time, through the generation engine's client: transient
    failures are retried with backoff and the server's Retry-After. A text that still fails raises: the general
    stage then fails and its build resumes from the cached teacher answers, instead of scoring the text wrongly."""

    name = "vllm"

    def __init__(self, endpoint: str, model: str, api_key: str | None = None, timeout: float = 120.0,
                 concurrency: int = 8, retries: int = 5):
        from kernelgen.generate.openai_engine import OpenAIEngine

        self.concurrency = max(1, concurrency)
        self._engine = OpenAIEngine(endpoint, model, api_key=api_key, endpoint="completions",
                                    max_concurrency=self.concurrency, timeout_s=timeout, retries=retries)
        self.model = model

    def _one(self, text: str) -> float:
        data = self._engine.post("/completions", {"model": self.model, "prompt": text, "max_tokens": 1, "echo": True,
                                                  "logprobs": 0, "temperature": 0})
        lps = [x for x in data["choices"][0]["logprobs"]["token_logprobs"] if x is not None]
        return math.exp(-sum(lps) / len(lps)) if lps else float("inf")

    def scores(self, texts: Sequence[str]) -> list[float]:
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="ppl") as pool:
            return list(pool.map(self._one, texts))   # in order; the first failure raises

    def close(self) -> None:
        self._engine.close()
