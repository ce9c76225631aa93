"""Stage 4, general CoT: import open reasoning corpora (local or S3 copies) and filter them.

Record shapes are recognised from their fields (messages, ShareGPT conversations, Alpaca, the R1-distill
input/reasoning_content/content shape, and the question/answer-like pairs); reasoning inlined in the output as
<think>…</think> (or Open-Thoughts markers) is split off. Filters, in order: Unicode normalisation, language
(offline py3langid; prompt and answer must agree and be an allowed language), length, repetition, perplexity
(pluggable scorer), then decontamination. Near-duplicates are removed at merge time, across shards.
"""
from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .context import StageContext
from .records import CoTRecord
from .text import cjk_ratio, detect_language, normalize

CORPUS_EXT = (".jsonl", ".json", ".parquet", ".jsonl.gz", ".json.gz")


def read_rows(path: Path) -> Iterator[dict[str, Any]]:
    name = path.name
    if name.endswith(".parquet"):
        import pyarrow.parquet as pq

        for row in pq.read_table(path).to_pylist():
            yield row
        return
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        text = fh.read()
    stripped = text.lstrip()
    if stripped.startswith("["):
        yield from (r for r in json.loads(stripped) if isinstance(r, dict))
        return
    for line in text.splitlines():
        line = line.strip()
        if line:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict):
                yield row


def corpus_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.is_file() and p.name.endswith(CORPUS_EXT))


_THINK_PAIRS = (("<think>", "</think>"), ("<|begin_of_thought|>", "<|end_of_thought|>"))


def split_think(output: str) -> tuple[str, str] | None:
    """(reasoning, answer) from an inline output; None for an unterminated think block."""
    for open_, close in _THINK_PAIRS:
        lo = output.find(open_)
        hi = output.find(close)
        if lo >= 0 and hi < 0:
            return None
        if hi >= 0:                      # R1 outputs may lack the opening tag
            start = lo + len(open_) if 0 <= lo < hi else 0
            answer = output[hi + len(close):]
            answer = re.sub(r"<\|(?:begin|end)_of_solution\|>", "", answer)
            return output[start:hi].strip(), answer.strip()
    return "", output.strip()


def detect_shape(row: dict[str, Any]) -> str | None:
    keys = set(row)
    if isinstance(row.get("messages"), list):
        return "messages"
    if isinstance(row.get("conversations"), list):
        return "sharegpt"
    if {"input", "content", "reasoning_content"} <= keys:
        return "r1-distill"
    if {"message", "reasoning", "answer"} <= keys:
        return "message-reasoning-answer"
    if {"instruction", "output"} <= keys:
        return "alpaca"
    for p, a in (("problem", "solution"), ("question", "answer"), ("prompt", "response"), ("prompt", "completion")):
        if {p, a} <= keys:
            return f"{p}-{a}"
    return None


_FORMAT_SHAPES = {"messages": ("messages",), "alpaca": ("alpaca",), "sharegpt": ("sharegpt",),
                  "prompt-completion": ("prompt-completion", "prompt-response")}


def to_triple(row: dict[str, Any], shape: str) -> tuple[str, str, str] | None:
    """(prompt, reasoning, answer), or None when the row is unusable (no answer, unterminated think)."""
    def from_output(prompt: str, output: str, reasoning: str = "") -> tuple[str, str, str] | None:
        if reasoning:
            return prompt, reasoning.strip(), output.strip()
        sp = split_think(output or "")
        return None if sp is None else (prompt, sp[0], sp[1])

    if shape in ("messages", "sharegpt"):
        msgs = row["messages"] if shape == "messages" else [
            {"role": {"human": "user", "gpt": "assistant"}.get(m.get("from"), m.get("from")), "content": m.get("value", "")}
            for m in row["conversations"]]
        last_asst = max((i for i, m in enumerate(msgs) if m.get("role") == "assistant"), default=None)
        if last_asst is None:
            return None
        users = [m for m in msgs[:last_asst] if m.get("role") == "user"]
        if not users:
            return None
        a = msgs[last_asst]
        return from_output(str(users[-1].get("content", "")), str(a.get("content", "")),
                           str(a.get("reasoning_content") or a.get("reasoning") or ""))
    if shape == "r1-distill":
        return from_output(str(row["input"]), str(row["content"]), str(row["reasoning_content"] or ""))
    if shape == "message-reasoning-answer":
        return from_output(str(row["message"]), str(row["answer"]), str(row["reasoning"] or ""))
    if shape == "alpaca":
        prompt = "\n\n".join(x for x in (str(row.get("instruction") or ""), str(row.get("input") or "")) if x.strip())
        return from_output(prompt, str(row["output"]))
    p, a = shape.split("-")
    return from_output(str(row[p]), str(row[a]), str(row.get("reasoning") or row.get("reasoning_content") or ""))


def repetition(text: str, n: int = 10) -> float:
    """Share of word n-grams that repeat an earlier one (Gopher-style degenerate-repetition signal)."""
    toks = text.split() if cjk_ratio(text) < 0.3 else list(text.replace(" ", ""))
    grams = [tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)]
    if len(grams) < 5:
        return 0.0
    c = Counter(grams)
    return sum(v - 1 for v in c.values()) / len(grams)


def language_of(text: str) -> str:
    if cjk_ratio(text) > 0.3:
        return "zh"
    return detect_language(text)[0]


def make_scorer(spec_ppl, teacher_spec=None):
    from . import scorers

    if spec_ppl.scorer == "ngram":
        return scorers.NgramScorer()
    if spec_ppl.scorer == "vllm":
        if not teacher_spec or not teacher_spec.endpoint:
            raise ValueError("perplexity scorer vllm needs teacher.endpoint")
        return scorers.VllmScorer(teacher_spec.endpoint, teacher_spec.model.uri)
    from kernelgen.generate.transformers_engine import load_model

    model, tok = load_model(teacher_spec.model.uri, gguf_file=teacher_spec.model.gguf_file)
    return scorers.CausalLMScorer(model, tok)


def _row_record(ctx: StageContext, st, src, rel: str, i: int, row: dict[str, Any]) -> CoTRecord | None:
    """The filtered record of one corpus row, or None (dropped, with its reason counted)."""
    f = ctx.spec.filters
    item = f"{src.uri}:{rel}:{i}"
    shape = detect_shape(row)
    if shape is None or (src.format != "auto" and shape not in _FORMAT_SHAPES.get(src.format, (shape,))):
        st.drop("unknown_shape", item=item)
        return None
    triple = to_triple(row, shape)
    if triple is None:
        st.drop("unterminated_think_or_no_answer", item=item)
        return None
    prompt, reasoning, answer = (normalize(x) if j == 0 else x.strip() for j, x in enumerate(triple))
    if not prompt or not answer:
        st.drop("empty_prompt_or_answer", item=item)
        return None
    if not reasoning and not ctx.options.lenient:
        st.drop("no_reasoning", item=item)
        return None
    # Language ID is unreliable on a one-line prompt, so the record's language comes from all of its
    # text, and prompt/response consistency from the script (Han vs. other), which is what the known
    # R1 artefact (a Chinese prompt answered in English, or the reverse) breaks.
    lang = language_of(prompt + "\n" + reasoning + "\n" + answer)
    if lang not in set(f.languages):
        st.drop("language", item=item)
        return None
    if (cjk_ratio(prompt) > 0.3) != (cjk_ratio(reasoning + answer) > 0.3):
        st.drop("language_mismatch", item=item)
        return None
    total = len(prompt) + len(reasoning) + len(answer)
    if (f.min_chars is not None and total < f.min_chars) or (f.max_chars is not None and total > f.max_chars):
        st.drop("length", item=item)
        return None
    if repetition(reasoning + "\n" + answer) > 0.3:
        st.drop("repetition", item=item)
        return None
    return CoTRecord(
        kind="general", source=src.uri, prompt=prompt, reasoning=reasoning, answer=answer, lang=lang,
        licence=str(row.get("license") or row.get("licence") or ctx.options.licence),
        provenance={"file": rel, "row": i, "shape": shape,
                    "dataset": row.get("repo_name") or row.get("source") or ""})


def run_general(ctx: StageContext, sources) -> list[CoTRecord]:
    st = ctx.stage_stats("general")
    if ctx.shard != 0:
        # No teacher here, and perplexity and near-duplicates are properties of the whole corpus: shard 0 filters
        # all of it, so the result does not depend on the shard count.
        return []
    f = ctx.spec.filters
    candidates: list[CoTRecord] = []
    for src in sources:
        for path in corpus_files(Path(src.local_path)):
            rel = path.name if Path(src.local_path).is_file() else path.relative_to(src.local_path).as_posix()
            _, rows = ctx.attempt(st, f"{src.uri}:{rel}", lambda p: list(read_rows(p)), path)
            for i, row in enumerate(rows or []):
                st.inputs += 1
                _, rec = ctx.attempt(st, f"{src.uri}:{rel}:{i}", _row_record, ctx, st, src, rel, i, row)
                if rec is not None:
                    candidates.append(rec)
    if candidates and f.perplexity.max is not None:
        scorer = make_scorer(f.perplexity, ctx.spec.teacher)
        kept = []
        texts = [r.reasoning + "\n" + r.answer for r in candidates]
        by_lang: dict[str, list[int]] = {}
        for i, r in enumerate(candidates):
            by_lang.setdefault(r.lang, []).append(i)
        ppl = [0.0] * len(candidates)
        try:
            for idx in by_lang.values():        # one model per language: a zh text is not scored by an en model
                for i, s in zip(idx, scorer.scores([texts[i] for i in idx])):
                    ppl[i] = s
        finally:
            scorer.close()
        for r, s in zip(candidates, ppl):
            r.meta["perplexity"] = round(s, 3)
            if s > f.perplexity.max:
                st.drop("perplexity", item=f"{r.source}:{r.provenance['file']}:{r.provenance['row']}")
            else:
                kept.append(r)
        candidates = kept
    out = []
    for r in candidates:
        if ctx.decontam is not None:
            hit = ctx.decontam.check_text(r.text())
            if hit:
                item = f"{r.source}:{r.provenance['file']}:{r.provenance['row']}"
                st.drop("decontam:" + hit.reason, item=item)
                ctx.decontam.report("general", item, hit)
                continue
        out.append(r)
    st.outputs += len(out)
    return out
