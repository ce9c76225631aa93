"""Prompt length against the teacher's context window, counted with the teacher's own tokenizer.

A prompt that does not leave room for `maxTokens` of answer is never sent: an engine would reject it or cut
it silently. The stages skip such items (or drop retrieved context until the prompt fits) and record why.
The tokenizer is loaded on its own (no weights), so counting costs no model load. When no tokenizer can be
loaded (an `openai` teacher without `model.tokenizer`), counts are an upper-bound estimate (one token per
three UTF-8 bytes; BPE vocabularies average more) and the stats say so.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

Messages = list[dict[str, str]]


def estimate_tokens(messages: Messages) -> int:
    """Upper-bound estimate without a tokenizer: code and English run ~3.5-4 bytes per token, CJK ~3."""
    return sum(len(m.get("content", "").encode("utf-8")) // 3 + 4 for m in messages) + 2


@dataclass
class PromptBudget:
    count: Callable[[Messages], int]
    context_tokens: int | None        # the teacher's context window; None = unknown (no limit applied)
    max_new_tokens: int
    counter: str                      # "tokenizer" or "estimate": what the counts are

    @property
    def limit(self) -> int | None:
        """Most prompt tokens that still leave room for a full answer."""
        return None if self.context_tokens is None else self.context_tokens - self.max_new_tokens

    def check(self, messages: Messages) -> tuple[bool, int]:
        if self.limit is None:
            return True, 0
        n = self.count(messages)
        return n <= self.limit, n


def tokenizer_counter(tok) -> Callable[[Messages], int]:
    """Prompt tokens as the engine sends them: the chat template with the generation prompt when there is one."""
    def count(messages: Messages) -> int:
        if getattr(tok, "chat_template", None):
            ids = tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=True)
            if isinstance(ids, dict) or hasattr(ids, "keys"):     # newer transformers return a BatchEncoding
                ids = ids["input_ids"]
            return len(ids)
        text = "".join(f"{m['role']}: {m['content']}\n" for m in messages) + "assistant: "
        return len(tok(text)["input_ids"])
    return count


def _load_tokenizer(teacher):
    """(tokenizer, context window from the model config or None); raises when there is no tokenizer locally."""
    from kernelgen.generate.models import _local, resolve_model

    ref = teacher.model
    if teacher.engine == "openai":        # the uri names a served model, not files: only model.tokenizer is local
        if not ref.tokenizer:
            raise LookupError("openai teacher without model.tokenizer")
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(str(_local(str(ref.tokenizer))), local_files_only=True), None
    local = resolve_model(ref.uri, gguf_file=ref.gguf_file, tokenizer=ref.tokenizer)
    from transformers import AutoConfig     # only once there is something to load

    from kernelgen.generate.transformers_engine import load_tokenizer     # shared with the engine (one load)

    kw = {"local_files_only": True}
    if local.gguf_file:
        kw["gguf_file"] = local.gguf_file
    tok = load_tokenizer(str(local.dir), local.gguf_file, str(local.tokenizer) if local.tokenizer else None)
    context = None
    try:
        cfg = AutoConfig.from_pretrained(str(local.dir), **kw)
        context = getattr(cfg, "max_position_embeddings", None)
    except (OSError, ValueError) as e:
        log.info("no model config for the teacher's context window (%s)", e)
    return tok, context


def budget_for(teacher) -> PromptBudget:
    """The budget of a CoTBuild teacher spec: `maxContextTokens` when set, else the model config's window."""
    context = getattr(teacher, "max_context_tokens", None)
    try:
        tok, model_context = _load_tokenizer(teacher)
        count, counter = tokenizer_counter(tok), "tokenizer"
        context = context or model_context
    except Exception as e:  # noqa: BLE001 - any failure to load a tokenizer falls back to the (safe) estimate
        log.warning("teacher tokenizer unavailable (%s: %s); prompt lengths are estimated", type(e).__name__, e)
        count, counter = estimate_tokens, "estimate"
    return PromptBudget(count, context, teacher.sampling.max_tokens, counter)
