"""records.jsonl: one EvalRecord per (task, case, sample), appended (and fsync'ed) as each finishes.

Resume: `RecordLog.load()` returns the records already on disk, keyed by (task_id, case_id, sample); the
evaluator skips those keys. The file is kernelgen.storage's durable JSONL: a run killed mid-write leaves at most
one partial last line, ignored on load and cut off before the next append.

Some fields are wall-clock measurements or hold temporary paths and differ from run to run by nature
(`VOLATILE_FIELDS`);
`stable_view` drops them, which is what "identical records after a resume" compares.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import asdict, fields
from pathlib import Path

from kernelgen.storage import JsonlAppender, LocalStore

from .model import EvalRecord

VOLATILE_FIELDS = ("seconds", "finished_at", "compile_seconds", "compile_cached", "candidate_ms", "baseline_ms",
                   "speedup", "diagnostics")
_FIELDS = {f.name for f in fields(EvalRecord)}


def record_from_dict(d: dict) -> EvalRecord:
    return EvalRecord(**{k: v for k, v in d.items() if k in _FIELDS})


def stable_view(rec: EvalRecord) -> dict:
    d = asdict(rec)
    for k in VOLATILE_FIELDS:
        d.pop(k, None)
    return d


class RecordLog:
    """One records file, read and appended through the storage's durable JSONL (kernelgen.storage.jsonl): each
    record is fsync'ed as it is appended, a torn last line is skipped on read and cut before the next append."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._dir = LocalStore(self.path.parent)
        self._out: JsonlAppender | None = None
        self._lock = threading.Lock()

    def load(self) -> dict[tuple[str, int, int], EvalRecord]:
        out: dict[tuple[str, int, int], EvalRecord] = {}
        for rec in self.iter():
            out[rec.key] = rec
        return out

    def iter(self) -> Iterator[EvalRecord]:
        for d in self._dir.iter_jsonl(self.path.name):
            try:
                yield record_from_dict(d)
            except TypeError:
                continue       # a record lacking a field this harness requires: evaluated again

    def append(self, rec: EvalRecord) -> None:
        with self._lock:       # the evaluator's workers share one log; the appender is opened once
            if self._out is None:
                self._out = self._dir.appender(self.path.name)
        self._out.append(asdict(rec))


def read_records(paths: Iterable[str | Path]) -> list[EvalRecord]:
    """All records of one or more logs (shards), de-duplicated by key, in key order."""
    merged: dict[tuple[str, int, int], EvalRecord] = {}
    for p in paths:
        merged.update(RecordLog(p).load())
    return [merged[k] for k in sorted(merged)]
