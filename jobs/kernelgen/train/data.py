"""Training data: read CoTBuild exports, validate them, measure token lengths, drop or trim over-length records.

Accepted record shapes (JSONL, JSON array or Parquet; a file, or a folder/prefix of such files):
- ``messages``: ``{"messages": [{"role", "content", "reasoning"?}]}``; reasoning kept in a separate field
  (``reasoning`` or ``reasoning_content``) is moved inline as ``<think>…</think>`` ahead of the answer;
- ``prompt-completion``: ``{"prompt", "completion"}``, each a string or a list of messages;
- ``preference``: ``{"prompt", "chosen", "rejected"}``; chosen/rejected may be a string, a list of messages,
  or a CoTBuild ``{"reasoning", "content"}`` object.
Everything is normalised to trl's conversational formats, which is what SFTTrainer and DPOTrainer take.
"""
from __future__ import annotations

import io
import json
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from kernelgen.train import artifacts

FORMATS = ("messages", "prompt-completion", "preference")
ROLES = {"system", "user", "assistant", "tool"}
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
DATA_SUFFIXES = (".jsonl", ".json", ".parquet")


class DatasetError(ValueError):
    pass


# CoTBuild writes <run>/dataset/<kind>.<jsonl|parquet> for each export kind; which kinds suit each method.
KIND_FILES = {"SFT": ("messages", "prompt-completion"), "DPO": ("dpo", "preference", "preferences")}


def select_files(names: list[str], method: str | None = None) -> list[str]:
    """The data files of a folder to read: the export kind that suits `method` when the folder holds several,
    and one format only (JSONL before Parquet before JSON), so that the same records are never read twice."""
    data = [n for n in names if n.endswith(DATA_SUFFIXES)
            and not n.rsplit("/", 1)[-1].startswith(("manifest", "dataset_info", "summary", "data-report"))]
    if method:
        for kind in KIND_FILES[method]:
            hits = [n for n in data if n.rsplit("/", 1)[-1].rsplit(".", 1)[0] == kind]
            if hits:
                data = hits
                break
    for suffix in DATA_SUFFIXES:
        chosen = [n for n in data if n.endswith(suffix)]
        if chosen:
            return chosen
    return []


def read_records(uri: str, method: str | None = None) -> list[dict[str, Any]]:
    """All records of a file, or of the data files `select_files` picks under a folder/prefix (sorted)."""
    if uri.endswith(DATA_SUFFIXES):
        names = [""]
    else:
        names = select_files(artifacts.list_files(uri), method)
        if not names:
            raise DatasetError(f"no .jsonl/.json/.parquet files under {uri}")
    records: list[dict[str, Any]] = []
    for name in names:
        file_uri = artifacts.join(uri, name) if name else uri
        records.extend(_parse(file_uri, artifacts.read_bytes(file_uri)))
    return records


def _parse(name: str, data: bytes) -> list[dict[str, Any]]:
    if name.endswith(".parquet"):
        import pyarrow.parquet as pq

        return pq.read_table(io.BytesIO(data)).to_pylist()
    text = data.decode("utf-8")
    if name.endswith(".json"):
        loaded = json.loads(text)
        return loaded if isinstance(loaded, list) else [loaded]
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def detect_format(record: dict[str, Any]) -> str:
    if "chosen" in record and "rejected" in record:
        return "preference"
    if "messages" in record:
        return "messages"
    if "prompt" in record and "completion" in record:
        return "prompt-completion"
    if "instruction" in record and "output" in record:
        return "messages"   # Alpaca export of the paper's released data
    raise DatasetError(f"unrecognised record fields: {sorted(record)}")


def inline_reasoning(content: str, reasoning: str | None) -> str:
    if not reasoning:
        return content
    return f"{THINK_OPEN}\n{reasoning.strip()}\n{THINK_CLOSE}\n\n{content.lstrip()}"


def _message(msg: dict[str, Any]) -> dict[str, str]:
    role = msg.get("role")
    if role not in ROLES:
        raise DatasetError(f"bad-role:{role}")
    content = msg.get("content")
    if not isinstance(content, str):
        raise DatasetError("content-not-text")
    reasoning = msg.get("reasoning") or msg.get("reasoning_content")
    return {"role": role, "content": inline_reasoning(content, reasoning) if role == "assistant" else content}


def _check_think(text: str) -> None:
    opens, closes = text.count(THINK_OPEN), text.count(THINK_CLOSE)
    if opens != closes or (closes and text.index(THINK_CLOSE) < text.index(THINK_OPEN)):
        raise DatasetError("unterminated-think")
    if not text.split(THINK_CLOSE)[-1].strip():
        raise DatasetError("empty-answer")


def _assistant_turn(value: Any) -> list[dict[str, str]]:
    """A completion/chosen/rejected side as a one-message assistant list."""
    if isinstance(value, str):
        msgs = [{"role": "assistant", "content": value}]
    elif isinstance(value, dict) and "content" in value and "role" not in value:
        msgs = [{"role": "assistant", "content": inline_reasoning(value["content"], value.get("reasoning"))}]
    elif isinstance(value, dict):
        msgs = [_message(value)]
    elif isinstance(value, list):
        msgs = [_message(m) for m in value]
    else:
        raise DatasetError("bad-completion")
    if not msgs or msgs[-1]["role"] != "assistant":
        raise DatasetError("no-assistant-turn")
    for m in msgs:
        if m["role"] == "assistant":
            _check_think(m["content"])
    return msgs


def _prompt(value: Any) -> list[dict[str, str]]:
    if isinstance(value, str):
        if not value.strip():
            raise DatasetError("empty-prompt")
        return [{"role": "user", "content": value}]
    if not isinstance(value, list) or not value:
        raise DatasetError("empty-prompt")
    msgs = [_message(m) for m in value]
    if msgs[-1]["role"] == "assistant":
        raise DatasetError("prompt-ends-with-assistant")
    return msgs


def normalise(record: dict[str, Any], fmt: str) -> dict[str, Any]:
    """One record in trl's conversational form for `fmt`; raises DatasetError(reason) when invalid."""
    if fmt == "messages":
        if "messages" in record:
            msgs = [_message(m) for m in record["messages"]]
        else:
            user = "\n\n".join(s for s in (record.get("instruction", ""), record.get("input", "")) if s)
            msgs = [{"role": "user", "content": user}, {"role": "assistant", "content": record["output"]}]
        if not any(m["role"] == "assistant" for m in msgs) or msgs[-1]["role"] != "assistant":
            raise DatasetError("no-assistant-turn")
        if any(not m["content"].strip() for m in msgs):
            raise DatasetError("empty-content")
        for m in msgs:
            if m["role"] == "assistant":
                _check_think(m["content"])
        return {"messages": msgs}
    if fmt == "prompt-completion":
        return {"prompt": _prompt(record["prompt"]), "completion": _assistant_turn(record["completion"])}
    if fmt == "preference":
        prompt = record.get("prompt")
        if prompt is None and "messages" in record:
            prompt = [m for m in record["messages"] if m.get("role") != "assistant"]
        row = {"prompt": _prompt(prompt), "chosen": _assistant_turn(record["chosen"]),
               "rejected": _assistant_turn(record["rejected"])}
        if row["chosen"] == row["rejected"]:
            raise DatasetError("chosen-equals-rejected")
        return row
    raise DatasetError(f"unknown format {fmt}")


@dataclass
class LengthStats:
    records: int = 0
    tokens: int = 0
    mean: float = 0.0
    p50: int = 0
    p90: int = 0
    p99: int = 0
    max: int = 0


@dataclass
class DataReport:
    uri: str
    format: str
    read: int = 0
    invalid: dict[str, int] = field(default_factory=dict)
    max_length: int = 0
    over_length: int = 0
    dropped_over_length: int = 0
    trimmed_over_length: int = 0
    kept: int = 0
    lengths: LengthStats = field(default_factory=LengthStats)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _percentile(sorted_values: list[int], q: float) -> int:
    if not sorted_values:
        return 0
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def length_stats(lengths: Iterable[int]) -> LengthStats:
    values = sorted(lengths)
    if not values:
        return LengthStats()
    return LengthStats(records=len(values), tokens=sum(values), mean=round(statistics.fmean(values), 1),
                       p50=_percentile(values, 0.5), p90=_percentile(values, 0.9), p99=_percentile(values, 0.99),
                       max=values[-1])


def _ids(tokenizer: Any, messages: list[dict[str, str]]) -> int:
    out = tokenizer.apply_chat_template(messages, tokenize=True)
    if isinstance(out, dict) or hasattr(out, "keys"):
        out = out["input_ids"]
    return len(out)


def token_length(tokenizer: Any, row: dict[str, Any]) -> int:
    """Tokens the trainer sees for this row (for a preference pair, the longer of its two sequences)."""
    if "messages" in row:
        return _ids(tokenizer, row["messages"])
    if "completion" in row:
        return _ids(tokenizer, row["prompt"] + row["completion"])
    return max(_ids(tokenizer, row["prompt"] + row["chosen"]), _ids(tokenizer, row["prompt"] + row["rejected"]))


def prepare(records: list[dict[str, Any]], tokenizer: Any, *, uri: str, fmt: str = "auto", max_length: int,
            over_length: str = "drop") -> tuple[list[dict[str, Any]], DataReport]:
    """Validate and normalise `records`, measure their token lengths, and apply the over-length policy.

    ``over_length="drop"`` removes records longer than `max_length`; ``"trim"`` keeps them and lets the trainer
    truncate them to `max_length` (counted as trimmed).
    """
    if over_length not in ("drop", "trim"):
        raise ValueError(f"over_length must be drop or trim, not {over_length!r}")
    if fmt == "auto":
        if not records:
            raise DatasetError(f"empty dataset: {uri}")
        fmt = detect_format(records[0])
    report = DataReport(uri=uri, format=fmt, read=len(records), max_length=max_length)
    rows, lengths = [], []
    for record in records:
        try:
            if detect_format(record) != fmt:
                raise DatasetError("mixed-format")
            row = normalise(record, fmt)
        except (DatasetError, KeyError, TypeError) as exc:
            reason = str(exc).split(":")[0] if isinstance(exc, DatasetError) else f"missing-{exc}".strip("'")
            report.invalid[reason] = report.invalid.get(reason, 0) + 1
            continue
        n = token_length(tokenizer, row)
        if n > max_length:
            report.over_length += 1
            if over_length == "drop":
                report.dropped_over_length += 1
                continue
            report.trimmed_over_length += 1
        rows.append(row)
        lengths.append(n)
    report.kept = len(rows)
    report.lengths = length_stats(lengths)
    if not rows:
        raise DatasetError(f"no usable records in {uri}: {report.to_dict()}")
    return rows, report
