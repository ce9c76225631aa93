"""`transformers` engine: local HF or GGUF checkpoints, batched, left-padded, CPU or GPU.

The everyday engine for small models and for CI (SmolLM2 GGUF on CPU). Decoding paths (`accel`):
- `graph` (default for Llama-family models): kernelgen.generate.fastdecode.StaticDecoder, a static KV cache,
  one prompt pass per distinct prompt shared by its n samples, and (on CUDA) the whole decode step replayed
  as one CUDA graph; `graph-compile` adds torch.compile of the step (one compile per batch shape);
- `static` / `compile`: model.generate with its static cache, plain or torch.compile'd (reduce-overhead);
- `none` (default for other architectures): plain model.generate.
`benchmarks/gen_throughput.py` measures what each buys.
"""
from __future__ import annotations

import functools

import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from .engine import Completion, Prompt, SamplingParams, sample_seed, split_reasoning

log = logging.getLogger(__name__)

Accel = Literal["auto", "none", "static", "compile", "graph", "graph-compile"]


@dataclass
class _Item:
    prompt: Prompt
    sample: int
    text: str          # rendered prompt text
    n_tokens: int
    seed: int | None


@functools.lru_cache(maxsize=4)
def load_tokenizer(model_dir: str, gguf_file: str | None = None, tokenizer: str | None = None):
    """The tokenizer of a local model (once per process: converting a GGUF vocabulary takes seconds, and CoTBuild
    counts prompt tokens with the same tokenizer its engine loads)."""
    from transformers import AutoTokenizer

    if tokenizer:
        return AutoTokenizer.from_pretrained(tokenizer, local_files_only=True)
    kw: dict[str, Any] = {"local_files_only": True}
    if gguf_file:
        kw["gguf_file"] = gguf_file
    return AutoTokenizer.from_pretrained(model_dir, **kw)


def load_model(model_dir: str | Path, *, gguf_file: str | None = None, tokenizer: str | Path | None = None,
               device: str | None = None, dtype: Any = None):
    """Load (model, tokenizer) from a local HF directory or a GGUF file in it. Nothing is fetched from a hub."""
    import torch
    from transformers import AutoModelForCausalLM

    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    if dtype is None:
        dtype = torch.bfloat16 if device.startswith("cuda") else torch.float32
    kw: dict[str, Any] = {"local_files_only": True}
    if gguf_file:
        kw["gguf_file"] = gguf_file
    tok = load_tokenizer(str(model_dir), gguf_file, str(tokenizer) if tokenizer else None)
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=dtype, **kw)
    if gguf_file and getattr(model, "hf_quantizer", None) is not None:
        # GGUF weights come back dequantized but the quantizer stays attached (train-stack.md §2-3); drop it
        # so the model behaves like a plain checkpoint (compile, save).
        model.hf_quantizer.remove_quantization_config(model)
    model.to(device).eval()
    return model, tok


class TransformersEngine:
    name = "transformers"

    def __init__(self, model_dir: str | Path, *, gguf_file: str | None = None, tokenizer: str | Path | None = None,
                 model_id: str | None = None, device: str | None = None, dtype: Any = None,
                 batch_size: int = 16, accel: Accel = "auto", model=None, tok=None):
        if model is None:
            model, tok = load_model(model_dir, gguf_file=gguf_file, tokenizer=tokenizer, device=device, dtype=dtype)
        self.model, self.tok = model, tok
        self.model_id = model_id or (f"{model_dir}#{gguf_file}" if gguf_file else str(model_dir))
        self.batch_size = max(1, batch_size)
        self._decoder = None
        self._last_ttft: float | None = None
        if accel == "auto":
            from .fastdecode import supports

            accel = "graph" if supports(self.model)[0] else "none"
        self.accel = accel
        if tok is not None:
            self.tok.padding_side = "left"
            if self.tok.pad_token_id is None:
                self.tok.pad_token = self.tok.eos_token

    @property
    def pad_token_id(self) -> int:
        if self.tok is not None and self.tok.pad_token_id is not None:
            return self.tok.pad_token_id
        cfg = self.model.config
        return next((i for i in (cfg.pad_token_id, cfg.eos_token_id) if isinstance(i, int)), 0)

    @property
    def device(self):
        return self.model.device

    def render(self, prompt: Prompt) -> str:
        if getattr(self.tok, "chat_template", None):
            text = self.tok.apply_chat_template(prompt.messages, tokenize=False, add_generation_prompt=True)
        else:
            text = "".join(f"{m['role']}: {m['content']}\n" for m in prompt.messages) + "assistant: "
        return text + prompt.assistant_prefix

    def generate(self, prompts: Sequence[Prompt], params: SamplingParams) -> Iterator[Completion]:
        items: list[_Item] = []
        for p in prompts:
            text = self.render(p)
            n_tok = len(self.tok(text, add_special_tokens=False)["input_ids"])
            for s in p.samples:
                items.append(_Item(p, s, text, n_tok, sample_seed(params.seed, p.key, s)))
        # Similar lengths together: less padding, and one compiled shape serves many batches.
        items.sort(key=lambda it: (it.n_tokens, it.prompt.key, it.sample))
        for i in range(0, len(items), self.batch_size):
            yield from self._batch(items[i:i + self.batch_size], params)

    def generate_ids(self, input_ids, attention_mask, params: SamplingParams, *, seed: int | None = None,
                     repeats: list[int] | None = None):
        """One batched generate call on already tokenized, left-padded input. Returns the new token ids."""
        import torch
        from transformers import GenerationConfig

        if seed is not None:
            torch.manual_seed(seed)
        if self.accel in ("graph", "graph-compile"):
            return self._graph_generate(input_ids, attention_mask, params, seed, repeats)
        if repeats is not None:
            input_ids = input_ids.repeat_interleave(torch.tensor(repeats, device=input_ids.device), 0)
            attention_mask = attention_mask.repeat_interleave(torch.tensor(repeats, device=input_ids.device), 0)
        eos = self.model.generation_config.eos_token_id
        if eos is None and self.tok is not None:
            eos = self.tok.eos_token_id
        cfg = GenerationConfig(
            max_new_tokens=params.max_tokens,
            do_sample=not params.greedy,
            temperature=params.temperature if not params.greedy else None,
            top_p=params.top_p if not params.greedy else None,
            top_k=0 if not params.greedy else None,   # no top-k cut: same sampler as vllm/openai
            eos_token_id=eos,
            pad_token_id=self.pad_token_id,
            stop_strings=list(params.stop) or None,
            cache_implementation="static" if self.accel in ("static", "compile") else None,
        )
        if self.accel == "compile":
            cfg.compile_config = _compile_config()
        with torch.inference_mode():
            out = self.model.generate(input_ids=input_ids, attention_mask=attention_mask, generation_config=cfg,
                                      tokenizer=self.tok if params.stop else None)
        return out[:, input_ids.shape[1]:]

    def _graph_generate(self, input_ids, attention_mask, params: SamplingParams, seed: int | None,
                        repeats: list[int] | None = None):
        import torch

        from .fastdecode import StaticDecoder

        if self._decoder is None:
            self._decoder = StaticDecoder(self.model, compile=self.accel == "graph-compile")
        gen = None
        if not params.greedy:
            gen = torch.Generator(device=self.model.device)
            gen.manual_seed(seed if seed is not None else torch.seed())
        out = self._decoder.generate(input_ids, attention_mask, max_new_tokens=params.max_tokens,
                                     eos_ids=self._eos_ids(), pad_id=self.pad_token_id,
                                     temperature=params.temperature, top_p=params.top_p, generator=gen,
                                     repeats=repeats)
        self._last_ttft = out.ttft_s
        return out.tokens

    def _batch(self, batch: list[_Item], params: SamplingParams) -> Iterator[Completion]:
        t0 = time.perf_counter()
        self._last_ttft = None
        # Samples of one prompt are adjacent (sorted by length, key): tokenize and prefill each prompt once.
        texts: list[str] = []
        repeats: list[int] = []
        for it in batch:
            if texts and it.text == texts[-1]:
                repeats[-1] += 1
            else:
                texts.append(it.text)
                repeats.append(1)
        enc = self.tok(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        enc = {k: v.to(self.device) for k, v in enc.items()}
        # One seed per batch (the first item's): the whole batch samples from one generator.
        new = self.generate_ids(enc["input_ids"], enc["attention_mask"], params, seed=batch[0].seed,
                                repeats=repeats).cpu()
        seconds = time.perf_counter() - t0
        eos_ids = self._eos_ids()
        for row, it in zip(new.tolist(), batch):
            ids, finish = _trim(row, eos_ids, self.tok.pad_token_id, params.max_tokens)
            text = self.tok.decode(ids, skip_special_tokens=True)
            if params.stop:
                text, hit = _cut_at_stop(text, params.stop)
                finish = "stop" if hit else finish
            full = it.prompt.assistant_prefix + text
            reasoning, content = split_reasoning(full)
            yield Completion(key=it.prompt.key, sample=it.sample, text=full, content=content, reasoning=reasoning,
                             prompt_tokens=it.n_tokens, completion_tokens=len(ids), finish_reason=finish,
                             seconds=seconds, ttft_seconds=self._last_ttft, seed=batch[0].seed,
                             extra={"batch": len(batch)})

    def _eos_ids(self) -> set[int]:
        eos = self.model.generation_config.eos_token_id
        if eos is None and self.tok is not None:
            eos = self.tok.eos_token_id
        ids = set(eos if isinstance(eos, list) else [eos])
        return {i for i in ids if i is not None}

    def close(self) -> None:
        self.model = None


def _compile_config():
    from transformers import CompileConfig

    return CompileConfig(fullgraph=True, dynamic=False, mode="reduce-overhead")


def _trim(row: list[int], eos_ids: set[int], pad_id: int | None, max_tokens: int) -> tuple[list[int], str]:
    """Cut a generated row at its first end-of-sequence token; say why it ended."""
    for i, t in enumerate(row):
        if t in eos_ids:
            return row[:i], "stop"
    if pad_id is not None and pad_id not in eos_ids:
        while row and row[-1] == pad_id:
            row = row[:-1]
    return row, "length" if len(row) >= max_tokens else "stop"


def _cut_at_stop(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    cut = min((i for i in (text.find(s) for s in stops) if i >= 0), default=-1)
    return (text[:cut], True) if cut >= 0 else (text, False)
