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
from typing import Protocol

from .ngram_lm import CharNgramLM


class Scorer(Protocol):
    name: str

    def scores(self, texts: Sequence[str]) -> list[float]: ...


class NgramScorer:
    name = "ngram"

    def __init__(self, n: int = 3):
        self.n = n

    def scores(self, texts: Sequence[str]) -> list[float]:
        lm = CharNgramLM(self.n).fit(texts)
        raw = [lm.perplexity(t, leave_out=True) for t in texts]
        med = statistics.median(raw) if raw else 1.0
        return [r / med for r in raw]


class CausalLMScorer:
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
    name = "vllm"

    def __init__(self, endpoint: str, model: str, api_key: str = "EMPTY", timeout: float = 120.0):
        self.endpoint, self.model, self.api_key, self.timeout = endpoint.rstrip("/"), model, api_key, timeout

    def scores(self, texts: Sequence[str]) -> list[float]:
        import httpx

        out = []
        with httpx.Client(timeout=self.timeout, headers={"Authorization": f"Bearer {self.api_key}"}) as c:
            for t in texts:
                r = c.post(f"{self.endpoint}/completions", json={"model": self.model, "prompt": t, "max_tokens": 1,
                                                                "echo": True, "logprobs": 0, "temperature": 0})
                r.raise_for_status()
                lps = [x for x in r.json()["choices"][0]["logprobs"]["token_logprobs"] if x is not None]
                out.append(math.exp(-sum(lps) / len(lps)) if lps else float("inf"))
        return out
