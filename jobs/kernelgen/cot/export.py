"""Exports of the canonical records for trl: conversational `messages` (reasoning inlined as <think>),
prompt-completion, and DPO triples (prompt/chosen/rejected), each as JSONL and/or Parquet."""
from __future__ import annotations

import io
import json
from typing import Any

from .records import CoTRecord


def assistant_text(reasoning: str, answer: str) -> str:
    return f"<think>\n{reasoning.strip()}\n</think>\n\n{answer.strip()}"


def _user(r: CoTRecord) -> list[dict[str, str]]:
    msgs = [{"role": "system", "content": r.system}] if r.system else []
    return msgs + [{"role": "user", "content": r.prompt}]


def to_messages(r: CoTRecord) -> dict[str, Any]:
    return {"id": r.id, "kind": r.kind, "lang": r.lang,
            "messages": _user(r) + [{"role": "assistant", "content": assistant_text(r.reasoning, r.answer)}]}


def to_prompt_completion(r: CoTRecord) -> dict[str, Any]:
    return {"id": r.id, "kind": r.kind, "lang": r.lang, "prompt": _user(r),
            "completion": [{"role": "assistant", "content": assistant_text(r.reasoning, r.answer)}]}


def to_dpo(r: CoTRecord) -> dict[str, Any] | None:
    if not r.rejected:
        return None
    prompt = r.meta.get("dpo_prompt") or r.prompt
    chosen = r.meta.get("chosen") or assistant_text(r.reasoning, r.answer)
    rejected = r.rejected.get("answer", "")
    if r.rejected.get("reasoning"):
        rejected = assistant_text(r.rejected["reasoning"], rejected)
    return {"id": r.id, "kind": r.kind, "prompt": [{"role": "user", "content": prompt}],
            "chosen": [{"role": "assistant", "content": chosen}],
            "rejected": [{"role": "assistant", "content": rejected}]}


EXPORTERS = {"messages": to_messages, "prompt-completion": to_prompt_completion, "dpo": to_dpo}


def jsonl_bytes(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def parquet_bytes(rows: list[dict[str, Any]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(rows), buf)
    return buf.getvalue()


def write_exports(store, records: list[CoTRecord], kinds: list[str], formats: list[str],
                  prefix: str = "dataset") -> dict[str, int]:
    counts = {}
    for kind in kinds:
        rows = [x for x in (EXPORTERS[kind](r) for r in records) if x is not None]
        counts[kind] = len(rows)
        if "jsonl" in formats:
            store.write_bytes(f"{prefix}/{kind}.jsonl", jsonl_bytes(rows))
        if "parquet" in formats and rows:
            store.write_bytes(f"{prefix}/{kind}.parquet", parquet_bytes(rows))
    return counts
