"""The canonical CoT record and the per-stage drop accounting."""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("doc_qa", "kernel", "project", "general", "debug_api", "debug_kernel")


@dataclass
class CoTRecord:
    """One training sample. `reasoning` is kept apart from `answer`; exports decide how to inline it."""

    kind: str                         # one of KINDS
    source: str                       # the spec source it came from (uri)
    prompt: str
    reasoning: str
    answer: str
    lang: str = ""
    licence: str = ""
    provenance: dict[str, Any] = field(default_factory=dict)   # paths, commit, includes, chunk ids, task ids
    teacher: dict[str, Any] = field(default_factory=dict)      # model, prompt hashes, finish reasons, tokens
    meta: dict[str, Any] = field(default_factory=dict)         # scenario, tiling check, filter scores
    rejected: dict[str, str] | None = None                     # {reasoning, answer} of the worse response (DPO)
    system: str = ""

    @property
    def id(self) -> str:
        payload = json.dumps([self.kind, self.source, self.prompt, self.answer], ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()[:24]

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["id"] = self.id
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CoTRecord:
        d = dict(d)
        d.pop("id", None)
        return cls(**d)

    def text(self) -> str:
        """Everything a contamination or quality check should see."""
        return "\n".join(x for x in (self.prompt, self.reasoning, self.answer) if x)


@dataclass
class StageStats:
    """Counts for the manifest: what came in, what went out, and every drop with its reason."""

    stage: str
    inputs: int = 0
    outputs: int = 0
    teacher_calls: int = 0
    teacher_cached: int = 0
    dropped: Counter = field(default_factory=Counter)
    extra: dict[str, Any] = field(default_factory=dict)
    items: list[dict[str, str]] = field(default_factory=list)   # which item each drop was (drops.jsonl)

    def drop(self, reason: str, n: int = 1, item: str | None = None, detail: str = "") -> None:
        self.dropped[reason] += n
        if item is not None:
            d = {"stage": self.stage, "item": item, "reason": reason}
            if detail:
                d["detail"] = detail[:500]
            self.items.append(d)

    def count(self, key: str, name: str, n: int = 1) -> None:
        """A named tally under extra[key] (yield per scenario format, compile-check reasons...)."""
        tally = self.extra.setdefault(key, {})
        tally[name] = tally.get(name, 0) + n

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "inputs": self.inputs, "outputs": self.outputs,
                "teacher_calls": self.teacher_calls, "teacher_cached": self.teacher_cached,
                "dropped": dict(sorted(self.dropped.items())), **self.extra}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> StageStats:
        d = dict(d)
        s = cls(stage=d.pop("stage"), inputs=d.pop("inputs", 0), outputs=d.pop("outputs", 0),
                teacher_calls=d.pop("teacher_calls", 0), teacher_cached=d.pop("teacher_cached", 0),
                dropped=Counter(d.pop("dropped", {})))
        s.extra = d
        return s

    def add(self, other: StageStats) -> None:
        self.inputs += other.inputs
        self.outputs += other.outputs
        self.teacher_calls += other.teacher_calls
        self.teacher_cached += other.teacher_cached
        self.dropped.update(other.dropped)
        for k, v in other.extra.items():
            if isinstance(v, (int, float)) and isinstance(self.extra.get(k, 0), (int, float)):
                self.extra[k] = self.extra.get(k, 0) + v
            elif isinstance(v, dict) and isinstance(self.extra.get(k, {}), dict):
                tally = self.extra.setdefault(k, {})
                for name, n in v.items():
                    tally[name] = tally.get(name, 0) + n if isinstance(n, (int, float)) else n
            else:
                self.extra.setdefault(k, v)
