"""The Store interface: one API over a local directory and an S3 prefix.

Keys are '/'-separated paths relative to the store's root (no leading '/'). Writes are atomic: a reader sees the old
object or the new one, never a partial one (tmp+rename on a file system, a single PUT or a completed multipart upload
on S3).
"""

from __future__ import annotations

import abc
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kernelgen.storage.jsonl import JsonlAppender, PartsAppender, complete_lines, iter_parts

CHUNK = 1 << 20


class StoreError(Exception):
    """An artifact store operation failed (missing object, bad URI, unreachable endpoint...)."""


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def clean_key(key: str) -> str:
    parts = [p for p in str(key).replace("\\", "/").split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise StoreError(f"key must not contain '..': {key!r}")
    return "/".join(parts)


def clean_prefix(prefix: str) -> str:
    """Like clean_key, but a trailing '/' (a directory-style prefix) is kept."""
    cleaned = clean_key(prefix)
    return cleaned + "/" if cleaned and str(prefix).endswith("/") else cleaned


def join_key(*parts: str) -> str:
    return clean_key("/".join(str(p) for p in parts if p))


class Store(abc.ABC):
    """An artifact root. Use `open_store(uri)` to get one."""

    uri: str

    # --- primitives each backend implements -------------------------------------------------------------------------
    @abc.abstractmethod
    def read_bytes(self, key: str) -> bytes: ...

    @abc.abstractmethod
    def write_bytes(self, key: str, data: bytes) -> None:
        """Atomically create or replace the object."""

    @abc.abstractmethod
    def exists(self, key: str) -> bool: ...

    @abc.abstractmethod
    def list(self, prefix: str = "") -> list[str]:
        """All keys under prefix (recursive), sorted, relative to the store root."""

    @abc.abstractmethod
    def delete(self, key: str) -> None:
        """Remove the object; no error when it does not exist."""

    @abc.abstractmethod
    def upload_file(self, key: str, path: str | Path) -> None:
        """Atomically store a local file (streamed, for large files)."""

    @abc.abstractmethod
    def download_file(self, key: str, path: str | Path) -> Path:
        """Copy the object to a local file (written atomically); returns the path."""

    @abc.abstractmethod
    def child(self, prefix: str) -> Store:
        """A store rooted at <root>/<prefix>."""

    @abc.abstractmethod
    def local_dir(self, prefix: str = "", cache_dir: str | Path | None = None) -> Path:
        """A local directory holding everything under prefix: the directory itself for a local store, a synced cache
        (only changed objects are fetched) for S3. For model weights that libraries load from disk."""

    def url(self, key: str = "") -> str:
        """The URI of a key (or of the root)."""
        key = clean_key(key)
        return self.uri.rstrip("/") + ("/" + key if key else "")

    # --- conveniences built on the primitives ----------------------------------------------------------------------
    def read_text(self, key: str) -> str:
        return self.read_bytes(key).decode("utf-8")

    def write_text(self, key: str, text: str) -> None:
        self.write_bytes(key, text.encode("utf-8"))

    def read_json(self, key: str) -> Any:
        return json.loads(self.read_bytes(key))

    def write_json(self, key: str, value: Any) -> None:
        self.write_text(key, json.dumps(value, indent=2, sort_keys=True) + "\n")

    def sha256(self, key: str) -> str:
        return sha256_bytes(self.read_bytes(key))

    # --- append-only JSONL (records that a resumed run continues; kernelgen.storage.jsonl) ----------------------------
    def appender(self, key: str, flush_every: int = 1) -> JsonlAppender:
        """Durable appends to key that a resumed writer continues. An object store has no append, so each flush is
        one immutable part object; LocalStore appends to the file itself."""
        return PartsAppender(self, clean_key(key), flush_every)

    def iter_jsonl(self, key: str) -> Iterator[dict[str, Any]]:
        """Every complete record written to key, in write order: a whole `<key>` object if one was uploaded, then
        its parts; a torn last line is skipped; a missing key yields nothing."""
        key = clean_key(key)
        if self.exists(key):
            yield from complete_lines(self.read_bytes(key))
        yield from iter_parts(self, key)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.uri!r})"

