"""records.jsonl: one EvalRecord per (task, case, sample), appended (and fsync'ed) as each finishes.

Resume: `RecordLog.load()` returns the records already on disk, keyed by (task_id, case_id, sample); the
evaluator skips those keys. A run killed mid-write leaves at most one partial last line; it is ignored on
load and cut off before the next append, so the file stays one JSON object per line.

Some fields are wall-clock measurements or hold temporary paths and differ from run to run by nature
(`VOLATILE_FIELDS`);
`stable_view` drops them, which is what "identical records after a resume" compares.
"""
from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, fields
from pathlib import Path
from typing import Iterable

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
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._repaired = False

    def load(self) -> dict[tuple[str, int, int], EvalRecord]:
        out: dict[tuple[str, int, int], EvalRecord] = {}
        for rec in self.iter():
            out[rec.key] = rec
        return out

    def iter(self) -> Iterable[EvalRecord]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as f:
            for line in f:
                if not line.endswith("\n"):
                    break            # partial last line from a killed writer
                if line.strip():
                    try:
                        yield record_from_dict(json.loads(line))
                    except (json.JSONDecodeError, TypeError):
                        continue

    def _repair_tail(self) -> None:
        """Cut a partial last line so the next append starts on a fresh line."""
        if self._repaired or not self.path.exists():
            self._repaired = True
            return
        with self.path.open("rb+") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size:
                f.seek(max(0, size - 65536))
                tail = f.read()
                if not tail.endswith(b"\n"):
                    nl = tail.rfind(b"\n")
                    f.truncate(size - len(tail) + nl + 1 if nl >= 0 else max(0, size - len(tail)))
        self._repaired = True

    def append(self, rec: EvalRecord) -> None:
        line = json.dumps(asdict(rec), sort_keys=True, ensure_ascii=False, default=str) + "\n"
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._repair_tail()
            with self.path.open("a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())


def read_records(paths: Iterable[str | Path]) -> list[EvalRecord]:
    """All records of one or more logs (shards), de-duplicated by key, in key order."""
    merged: dict[tuple[str, int, int], EvalRecord] = {}
    for p in paths:
        merged.update(RecordLog(p).load())
    return [merged[k] for k in sorted(merged)]
