"""Keeps the sim build cache under a size bound, evicting what was used longest ago.

Every build, object and precompiled header is content-addressed, so the cache only ever grows: each simulator or
torch change keys a fresh set (a precompiled torch header alone is ~0.7 GB). Entries are the cache's top-level
directories (builds, pch-*, torch-pch-*) and the files of objs/; an entry's mtime is its last use (`touch` on every
hit). Entries used in the last hour are never evicted, so a run in another process never loses what it is loading.
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

DEFAULT_MAX_GB = 10.0
MIN_IDLE_S = 3600.0


def max_bytes() -> int:
    """KERNELGEN_SIM_CACHE_MAX_GB (default 10; 0 disables eviction)."""
    raw = os.environ.get("KERNELGEN_SIM_CACHE_MAX_GB", "")
    try:
        gb = float(raw) if raw else DEFAULT_MAX_GB
    except ValueError:
        raise ValueError(f"KERNELGEN_SIM_CACHE_MAX_GB must be a number of GB, not {raw!r}") from None
    return int(gb * (1 << 30))


def touch(path: Path) -> None:
    """Mark a cache entry as used now (best effort: a read-only cache still works, it only ages)."""
    try:
        os.utime(path)
    except OSError:
        pass


def _size(path: Path) -> int:
    if path.is_symlink() or not path.is_dir():
        return path.lstat().st_size
    return sum(p.lstat().st_size for p in path.rglob("*"))


def _entries(root: Path) -> list[Path]:
    out = []
    for p in root.iterdir():
        if p.name == "objs" and p.is_dir():
            # an object and its .sha256 side file go together: the side file follows its object
            out.extend(q for q in p.iterdir() if not q.name.endswith(".sha256"))
        else:
            out.append(p)
    return out


def prune(root: Path, limit: int, *, now: float | None = None) -> list[Path]:
    """Evict least recently used entries until `root` holds at most `limit` bytes; returns what was evicted."""
    if limit <= 0 or not root.is_dir():
        return []
    now = time.time() if now is None else now
    sized = []
    for p in _entries(root):
        try:
            sized.append((p.lstat().st_mtime, _size(p), p))
        except OSError:   # removed meanwhile by another process
            continue
    total = sum(s for _, s, _ in sized)
    evicted = []
    for mtime, size, p in sorted(sized, key=lambda e: e[0]):
        if total <= limit:
            break
        if now - mtime < MIN_IDLE_S:
            break   # oldest first: everything after this one is in use too
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
            p.with_name(p.name + ".sha256").unlink(missing_ok=True)
        total -= size
        evicted.append(p)
    return evicted
