"""A Store over a local directory (file:// URIs and bare paths)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kernelgen.storage.base import Store, StoreError, clean_key, clean_prefix
from kernelgen.storage.jsonl import FileAppender, JsonlAppender, iter_file, iter_parts

TMP_PREFIX = ".tmp-"


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class LocalStore(Store):
    def __init__(self, root: str | Path):
        self.root = Path(root).expanduser().resolve()
        self.uri = self.root.as_uri()

    def path(self, key: str) -> Path:
        key = clean_key(key)
        return self.root / key if key else self.root

    def read_bytes(self, key: str) -> bytes:
        try:
            return self.path(key).read_bytes()
        except FileNotFoundError as e:
            raise StoreError(f"not found: {self.url(key)}") from e

    def _atomic(self, key: str, write) -> None:  # noqa: ANN001 - write(file object)
        dest = self.path(key)
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=dest.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, dest)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _fsync_dir(dest.parent)

    def write_bytes(self, key: str, data: bytes) -> None:
        self._atomic(key, lambda f: f.write(data))

    def upload_file(self, key: str, path: str | Path) -> None:
        def copy(f) -> None:  # noqa: ANN001
            with open(path, "rb") as src:
                shutil.copyfileobj(src, f, 1 << 20)

        self._atomic(key, copy)

    def download_file(self, key: str, path: str | Path) -> Path:
        src = self.path(key)
        if not src.is_file():
            raise StoreError(f"not found: {self.url(key)}")
        dest = Path(path)
        LocalStore(dest.parent).upload_file(dest.name, src)
        return dest

    def exists(self, key: str) -> bool:
        return self.path(key).is_file()

    def list(self, prefix: str = "") -> list[str]:
        # A prefix is a string prefix, as on S3: "runs/a" matches runs/a/x and runs/ab.
        prefix = clean_prefix(prefix)
        search = self.root / prefix.rsplit("/", 1)[0] if "/" in prefix else self.root
        if not search.is_dir():
            return []
        keys = []
        for dirpath, _dirs, files in os.walk(search):
            for name in files:
                if name.startswith(TMP_PREFIX):
                    continue
                key = Path(dirpath, name).relative_to(self.root).as_posix()
                if key.startswith(prefix):
                    keys.append(key)
        return sorted(keys)

    def delete(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)

    def child(self, prefix: str) -> LocalStore:
        return LocalStore(self.path(prefix))

    def local_dir(self, prefix: str = "", cache_dir: str | Path | None = None) -> Path:
        return self.path(prefix)

    def appender(self, key: str, flush_every: int = 1) -> JsonlAppender:
        """Appends to the file itself (O_APPEND, fsync'd at each flush; a torn tail is cut first)."""
        return FileAppender(self.path(key), flush_every)

    def iter_jsonl(self, key: str) -> Iterator[dict[str, Any]]:
        # streamed line by line; parts appear here only in a copy of an object store's prefix
        yield from iter_file(self.path(key))
        yield from iter_parts(self, clean_key(key))
