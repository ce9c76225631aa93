"""`openai` engine: any OpenAI-compatible server (vllm serve, llama.cpp, sglang, hosted APIs).

One HTTP request per sample (n=1, with that sample's own seed), so a sample that fails can be retried or
resumed alone; at most `max_concurrency` requests are in flight. Transient failures (connection refused or
reset, timeouts, 408/409/429/5xx) are retried with exponential backoff and jitter; a server's `Retry-After`
(seconds or an HTTP date) is honoured as the minimum wait, up to `retry_after_max_s`; other 4xx are final.
"""
from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from email.utils import parsedate_to_datetime
from typing import Any, Literal

import httpx

from .engine import (
    Completion,
    Prompt,
    SamplingParams,
    render_chatml,
    sample_seed,
    split_reasoning,
)

log = logging.getLogger(__name__)

Endpoint = Literal["chat", "completions"]
_RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class RequestFailed(RuntimeError):
    pass


def parse_choice(data: dict[str, Any], endpoint: Endpoint, assistant_prefix: str = ""
                 ) -> tuple[str, str, str, str, int, int]:
    """(text, content, reasoning, finish_reason, prompt_tokens, completion_tokens) of a response's first choice.

    Reasoning comes from the server's reasoning parser when it has one (`reasoning_content`: vllm, DeepSeek;
    `reasoning`: newer vllm, OpenRouter, Ollama), else from a `<think>` block in the text. `text` is the whole
    response with the reasoning put back in a think block, so nothing the model wrote is lost.
    """
    choice = (data.get("choices") or [{}])[0]
    usage = data.get("usage") or {}
    if endpoint == "chat":
        msg = choice.get("message") or {}
        content = msg.get("content") or ""
        reasoning = msg.get("reasoning_content") or msg.get("reasoning") or ""
        if reasoning:
            text = f"<think>\n{reasoning}\n</think>\n{content}"
        else:
            text = content
            reasoning, content = split_reasoning(content)
    else:
        text = assistant_prefix + (choice.get("text") or "")
        reasoning, content = split_reasoning(text)
    return (text, content, reasoning, choice.get("finish_reason") or "stop",
            int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))


def retry_after_seconds(value: str | None) -> float:
    """Seconds a `Retry-After` header asks for (delta-seconds or an HTTP date); 0 when absent or unreadable."""
    if not value:
        return 0.0
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return 0.0


class OpenAIEngine:
    name = "openai"

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None, endpoint: Endpoint = "chat",
                 max_concurrency: int = 16, timeout_s: float = 600.0, retries: int = 8,
                 backoff_s: float = 1.0, backoff_max_s: float = 30.0, retry_after_max_s: float = 300.0,
                 extra_body: dict[str, Any] | None = None):
        self.base_url = base_url.rstrip("/")
        if not self.base_url.endswith("/v1"):
            self.base_url += "/v1"
        self.model = model
        self.model_id = model
        self.endpoint = endpoint
        self.max_concurrency = max(1, max_concurrency)
        self.retries = retries
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        self.retry_after_max_s = retry_after_max_s
        self.extra_body = extra_body or {}
        key = api_key if api_key is not None else os.environ.get("KERNELGEN_API_KEY") or os.environ.get("OPENAI_API_KEY")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=min(10.0, timeout_s)),
            limits=httpx.Limits(max_connections=self.max_concurrency, max_keepalive_connections=self.max_concurrency),
        )
        self._warned_prefix = False
        self._lock = threading.Lock()

    # -- requests --------------------------------------------------------------------------------------------
    def _body(self, prompt: Prompt, params: SamplingParams, seed: int | None) -> tuple[str, dict[str, Any]]:
        body: dict[str, Any] = {"model": self.model, "n": 1, "max_tokens": params.max_tokens,
                                "temperature": params.temperature, "top_p": params.top_p, "stream": False}
        if seed is not None:
            body["seed"] = seed
        if params.stop:
            body["stop"] = list(params.stop)
        body.update(self.extra_body)
        if self.endpoint == "chat":
            if prompt.assistant_prefix and not self._warned_prefix:
                log.warning("the chat endpoint cannot prefill the assistant turn; assistant_prefix %r is ignored",
                            prompt.assistant_prefix)
                self._warned_prefix = True
            body["messages"] = prompt.messages
            return "/chat/completions", body
        body["prompt"] = render_chatml(prompt.messages, prompt.assistant_prefix)
        return "/completions", body

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST with retries on transient failures (backoff, Retry-After). Raises RequestFailed when retries are
        exhausted. Public for other clients of the same server (the CoT perplexity scorer)."""
        last = ""
        server_wait = 0.0
        for attempt in range(self.retries + 1):
            if attempt:
                delay = min(self.backoff_max_s, self.backoff_s * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
                delay = max(delay, server_wait)
                log.info("retrying %s in %.1fs (attempt %d/%d): %s", path, delay, attempt, self.retries, last)
                time.sleep(delay)
            try:
                r = self._client.post(self.base_url + path, json=body)
            except httpx.TransportError as e:     # connect/read errors and timeouts
                last = f"{type(e).__name__}: {e}"
                continue
            if r.status_code == 200:
                return r.json()
            last = f"HTTP {r.status_code}: {r.text[:300]}"
            if r.status_code not in _RETRY_STATUS:
                break
            server_wait = min(self.retry_after_max_s, retry_after_seconds(r.headers.get("retry-after")))
        raise RequestFailed(last)

    def _one(self, prompt: Prompt, sample: int, params: SamplingParams) -> Completion:
        seed = sample_seed(params.seed, prompt.key, sample)
        path, body = self._body(prompt, params, seed)
        t0 = time.perf_counter()
        try:
            data = self.post(path, body)
        except RequestFailed as e:
            return Completion(key=prompt.key, sample=sample, text="", content="", reasoning="", prompt_tokens=0,
                              completion_tokens=0, finish_reason="error", seconds=time.perf_counter() - t0,
                              seed=seed, error=str(e))
        seconds = time.perf_counter() - t0
        text, content, reasoning, finish, ptok, ctok = parse_choice(data, self.endpoint, prompt.assistant_prefix)
        return Completion(key=prompt.key, sample=sample, text=text, content=content, reasoning=reasoning,
                          prompt_tokens=ptok, completion_tokens=ctok, finish_reason=finish, seconds=seconds,
                          seed=seed, extra={"server_model": data.get("model", "")})

    # -- protocol --------------------------------------------------------------------------------------------
    def generate(self, prompts: Sequence[Prompt], params: SamplingParams) -> Iterator[Completion]:
        work = [(p, s) for p in prompts for s in p.samples]
        it = iter(work)
        with ThreadPoolExecutor(max_workers=self.max_concurrency, thread_name_prefix="openai") as pool:
            pending: set[Future] = set()

            def fill() -> None:
                while len(pending) < self.max_concurrency:
                    nxt = next(it, None)
                    if nxt is None:
                        return
                    pending.add(pool.submit(self._one, nxt[0], nxt[1], params))

            fill()
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for f in done:
                        pending.discard(f)
                        yield f.result()
                    fill()
            finally:
                for f in pending:
                    f.cancel()

    def models(self) -> list[str]:
        r = self._client.get(self.base_url + "/models")
        r.raise_for_status()
        return [m.get("id", "") for m in r.json().get("data", [])]

    def close(self) -> None:
        self._client.close()
