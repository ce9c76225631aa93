"""The engine protocol: prompts in, sampled completions out, one at a time as they finish.

Every engine (`vllm`, `openai`, `transformers`) takes a list of `Prompt`s, each naming the sample indices it
still needs, and yields one `Completion` per (prompt, sample) as soon as it is done, so the caller can persist
it before asking for the next. Engines never write files; the generate stage does.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class SamplingParams:
    """Sampling parameters shared by every engine (names follow vllm's SamplingParams)."""

    n: int = 1
    temperature: float = 0.7
    top_p: float = 0.9
    max_tokens: int = 16384
    seed: int | None = None          # run seed; each sample gets its own seed derived from it (see sample_seed)
    stop: tuple[str, ...] = ()

    @property
    def greedy(self) -> bool:
        return self.temperature <= 0.0

    def to_meta(self) -> dict[str, Any]:
        d = asdict(self)
        d["stop"] = list(self.stop)
        return d


@dataclass
class Prompt:
    """One conversation to complete. `key` is the caller's id (e.g. the task id); `samples` are the sample
    indices still wanted (all of range(n) on a fresh run, the missing ones on resume)."""

    key: str
    messages: list[dict[str, str]]
    samples: list[int]
    # Text the assistant turn starts with (e.g. "<think>\n" to prefill reasoning, as NPUKernelBench does).
    assistant_prefix: str = ""

    @property
    def sha256(self) -> str:
        payload = json.dumps({"messages": self.messages, "assistant_prefix": self.assistant_prefix},
                             sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()


@dataclass
class Completion:
    """One sampled answer to one prompt."""

    key: str
    sample: int
    text: str                        # raw completion text as produced (assistant prefix included)
    content: str                     # answer with the reasoning removed
    reasoning: str                   # reasoning (between <think> and </think>, or the server's reasoning field)
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str               # "stop", "length", "error", ...
    seconds: float                   # wall time of the request/batch that produced it
    ttft_seconds: float | None = None
    seed: int | None = None
    error: str = ""                  # set when finish_reason == "error"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.finish_reason != "error"


@runtime_checkable
class Engine(Protocol):
    """A generation backend. `generate` yields completions in any order, each exactly once."""

    name: str
    model_id: str                    # what gets recorded as the model of every completion

    def generate(self, prompts: Sequence[Prompt], params: SamplingParams) -> Iterator[Completion]: ...

    def close(self) -> None: ...


def sample_seed(run_seed: int | None, key: str, sample: int) -> int | None:
    """A per-sample seed that does not depend on batching or on which samples were already done, so a resumed
    run asks for the same sample with the same seed."""
    if run_seed is None:
        return None
    h = hashlib.sha256(f"{run_seed}:{key}:{sample}".encode()).digest()
    return int.from_bytes(h[:4], "little") & 0x7FFFFFFF


_OPEN, _CLOSE = "<think>", "</think>"


def split_reasoning(text: str, *, prefilled_think: bool = False) -> tuple[str, str]:
    """Split `<think>…</think>` reasoning from the answer. Returns (reasoning, content).

    `prefilled_think` says the prompt already opened the think block, so the text starts inside it. A think
    block that never closes (cut by max_tokens) is all reasoning and leaves no content. A closing tag with no
    opening one (templates that put `<think>` in the prompt) also marks what precedes it as reasoning.
    """
    low = text.lower()
    close = low.find(_CLOSE)
    if prefilled_think:
        if close < 0:
            return text.strip(), ""
        return text[:close].strip(), text[close + len(_CLOSE):].strip()
    stripped = low.lstrip()
    if stripped.startswith(_OPEN):
        start = len(low) - len(stripped) + len(_OPEN)
        close = low.find(_CLOSE, start)
        if close < 0:
            return text[start:].strip(), ""
        return text[start:close].strip(), text[close + len(_CLOSE):].strip()
    opening = low.find(_OPEN)
    if close >= 0 and (opening < 0 or opening > close):
        return text[:close].strip(), text[close + len(_CLOSE):].strip()
    return "", text.strip()


def render_chatml(messages: Sequence[dict[str, str]], assistant_prefix: str = "") -> str:
    """Qwen/ChatML rendering for completion-style endpoints that receive raw text (NPUKernelBench's path)."""
    parts = [f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages]
    return "".join(parts) + "<|im_start|>assistant\n" + assistant_prefix
