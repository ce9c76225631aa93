"""Append-only JSONL that survives a killed run: every flushed line is durable, and a resumed writer continues.

Local files: lines are appended to the one file with O_APPEND and fsync'd at each flush. A process killed mid-write
can leave a torn last line (no trailing newline); readers ignore it and a new appender cuts it off before writing.

S3 has no append. Rewriting the whole object on every line costs O(n^2) transfer, so instead each flush writes one
new immutable *part object* `<key>.parts/<seq>.jsonl` (seq = 10 zero-padded digits, continuing after the highest
existing part). A PUT is atomic, so a part is either whole or absent: nothing torn to repair. Readers concatenate the
parts in order (and a plain `<key>` object first, if one was uploaded whole). With `flush_every=1` (the default)
every line is durable at once, at one PUT per line; batch with a larger `flush_every` or explicit `flush()` where
PUT rate matters (benchmarks/storage_append.py, this 2-core box: ~120 records/s at flush_every=1 on a local versitygw,
~160/s for fsync'd local appends, ~10k/s with flush_every=100 on both; a BenchRun case takes far longer than 10 ms,
so per-record durability is the default). One writer per key: shards write their own keys. Readers list the parts
once and fetch them in parallel; a finished writer may `compact` them into the one `<key>` object.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

PARTS_SUFFIX = ".parts"


def _dumps(record: Any) -> bytes:
    # default=str: a value JSON has no type for (a Path, an enum) is kept as its text rather than losing the record
    line = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    if "\n" in line:  # json.dumps escapes newlines inside strings; this guards custom encoders
        raise ValueError("a JSONL record must serialise to one line")
    return line.encode("utf-8") + b"\n"


class ObjectStore(Protocol):
    """What the part-object appender needs of a store (kernelgen.storage.base.Store provides it)."""

    def write_bytes(self, key: str, data: bytes) -> None: ...

    def read_bytes(self, key: str) -> bytes: ...

    def list(self, prefix: str = "") -> list[str]: ...

    def exists(self, key: str) -> bool: ...

    def delete(self, key: str) -> None: ...


def complete_lines(data: bytes) -> Iterator[dict[str, Any]]:
    lines = data.split(b"\n")
    # The last element is b"" after a trailing newline, or a torn line from a killed writer: skip it either way.
    for line in lines[:-1]:
        if line.strip():
            yield json.loads(line)


class JsonlAppender:
    """Append records; `flush()` makes them durable. Use as a context manager (flushes on exit).
    Thread-safe: the evaluator's workers append to one log."""

    def __init__(self, flush_every: int = 1):
        self.flush_every = max(1, int(flush_every))
        self._pending: list[bytes] = []
        self._lock = threading.Lock()

    def append(self, record: Any) -> None:
        line = _dumps(record)
        with self._lock:
            self._pending.append(line)
            if len(self._pending) >= self.flush_every:
                self._flush_locked()

    def extend(self, records: Iterable[Any]) -> None:
        for r in records:
            self.append(r)

    def flush(self) -> None:
        with self._lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        if self._pending:
            data = b"".join(self._pending)
            self._write(data)
            self._pending.clear()

    def _write(self, data: bytes) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.flush()

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FileAppender(JsonlAppender):
    def __init__(self, path: Path, flush_every: int = 1):
        super().__init__(flush_every)
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._repair_torn_tail()

    def _repair_torn_tail(self) -> None:
        """Cut a torn last line (a killed writer's) so the next record starts on a line of its own."""
        if not self.path.is_file() or self.path.stat().st_size == 0:
            return
        with open(self.path, "rb+") as f:
            end = f.seek(0, os.SEEK_END)
            f.seek(end - 1)
            if f.read(1) == b"\n":
                return
            pos = end
            while pos > 0:          # back to the last newline, a block at a time (logs can be large)
                start = max(0, pos - (1 << 16))
                f.seek(start)
                nl = f.read(pos - start).rfind(b"\n")
                if nl >= 0:
                    pos = start + nl + 1
                    break
                pos = start
            f.truncate(pos)
            f.flush()
            os.fsync(f.fileno())

    def _write(self, data: bytes) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)


class PartsAppender(JsonlAppender):
    """Appends to an object store that has no append: one immutable part object per flush (module docstring)."""

    def __init__(self, store: ObjectStore, key: str, flush_every: int = 1):
        super().__init__(flush_every)
        self.store = store
        self.key = key
        parts = part_keys(store, self.key)
        self._seq = (int(parts[-1].rsplit("/", 1)[-1].split(".")[0]) + 1) if parts else 0

    def _write(self, data: bytes) -> None:
        self.store.write_bytes(f"{self.key}{PARTS_SUFFIX}/{self._seq:010d}.jsonl", data)
        self._seq += 1


def part_keys(store: ObjectStore, key: str) -> list[str]:
    prefix = f"{key}{PARTS_SUFFIX}/"
    return sorted(k for k in store.list(prefix) if k.endswith(".jsonl") and k[len(prefix) :].split(".")[0].isdigit())


PARALLEL_READS = 16   # part objects are small (a line or a batch each): a resume is bound by round trips


def read_parts(store: ObjectStore, parts: list[str]) -> Iterator[bytes]:
    """The bytes of `parts`, in order, fetched PARALLEL_READS at a time (one GET each, not one after another)."""
    if len(parts) <= 1:
        yield from (store.read_bytes(k) for k in parts)
        return
    with ThreadPoolExecutor(max_workers=min(PARALLEL_READS, len(parts)), thread_name_prefix="parts") as pool:
        yield from pool.map(store.read_bytes, parts)


def iter_parts(store: ObjectStore, key: str) -> Iterator[dict[str, Any]]:
    """The records of key's part objects, in write order: one listing, then parallel reads."""
    for data in read_parts(store, part_keys(store, key)):
        yield from complete_lines(data)


def compact(store: ObjectStore, key: str) -> int:
    """Fold key's part objects into the one `<key>` object (its old content first), then delete the parts; returns
    how many parts were folded. For a finished writer (a shard that is done): a later resume reads one object.
    Killed between the write and the deletes, a reader sees the folded records twice, which every reader of these
    logs tolerates (records are keyed: the last one of a key wins)."""
    parts = part_keys(store, key)
    if not parts:
        return 0
    chunks = [store.read_bytes(key)] if store.exists(key) else []
    chunks += list(read_parts(store, parts))
    body = b"".join(c[: c.rfind(b"\n") + 1] for c in chunks)   # whole lines only: a torn tail is dropped
    store.write_bytes(key, body)
    for k in parts:
        store.delete(k)
    return len(parts)


def iter_file(path: Path) -> Iterator[dict[str, Any]]:
    """The complete records of a local JSONL file, streamed (a torn last line is skipped; no file: nothing)."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return
    with f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break          # the torn tail of a killed writer
            if raw.strip():
                yield json.loads(raw)
