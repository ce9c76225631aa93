"""Artifact store: one interface over local paths (file:// or bare) and S3 (s3://bucket/prefix).

    store = open_store("s3://bucket/runs/br1")        # or "file:///data/runs/br1", or "runs/br1"
    store.write_json("summary.json", {...})           # atomic
    with store.appender("records.jsonl") as out:      # durable appends (the one JSONL log: bench records,
        out.append(record)                            # generated samples, the CoT teacher cache)
    done = {r["id"] for r in store.iter_jsonl("records.jsonl")}   # resume: what is already there
    write_manifest(store)                             # sha256 of every artifact
    model_dir = fetch("s3://models/smollm2")          # synced to a local cache for libraries that read files
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kernelgen.storage.base import Store, StoreError, join_key, sha256_bytes, sha256_file
from kernelgen.storage.jsonl import JsonlAppender
from kernelgen.storage.local import LocalStore
from kernelgen.storage.manifest import MANIFEST, build_manifest, verify_manifest, write_manifest
from kernelgen.storage.s3 import DEFAULT_CACHE, S3Config, S3Store, parse_s3_uri


def open_store(
    uri: str | Path,
    *,
    endpoint: str | None = None,
    region: str | None = None,
    secret_dir: str | Path | None = None,
) -> Store:
    """The store rooted at uri: s3://bucket/prefix, file:///abs/path, or a bare (relative or absolute) path."""
    text = str(uri)
    if text.startswith("s3://"):
        return S3Store(text, S3Config.resolve(endpoint=endpoint, region=region, secret_dir=secret_dir))
    if text.startswith("file://"):
        from urllib.parse import unquote, urlparse

        parsed = urlparse(text)
        if parsed.netloc not in ("", "localhost"):
            raise StoreError(f"file:// URI with a host is not supported: {text!r}")
        return LocalStore(unquote(parsed.path))
    if "://" in text:
        raise StoreError(f"unsupported URI scheme (use s3://, file:// or a path): {text!r}")
    return LocalStore(text)


def open_output(output: Any, secret_dir: str | Path | None = None) -> Store:
    """The store for a spec's `output` block (uri, endpoint, region)."""
    return open_store(
        output.uri, endpoint=getattr(output, "endpoint", None), region=getattr(output, "region", None),
        secret_dir=secret_dir,
    )


def fetch(uri: str | Path, cache_dir: str | Path | None = None, **s3: Any) -> Path:
    """A local path for uri: local paths as they are; an S3 object downloaded, or an S3 prefix synced, into the
    cache (only changed objects are fetched again). For model weights and datasets that libraries read from disk."""
    text = str(uri)
    if not text.startswith("s3://"):
        store = open_store(text)
        assert isinstance(store, LocalStore)
        if not store.root.exists():
            raise StoreError(f"not found: {text}")
        return store.root
    bucket, key = parse_s3_uri(text)
    root = S3Store(f"s3://{bucket}", S3Config.resolve(**s3))
    if key and root.exists(key):
        dest = Path(cache_dir) / Path(key).name if cache_dir else DEFAULT_CACHE / bucket / key
        return root.download_file(key, dest)
    path = root.local_dir(key, cache_dir)
    if not any(p.name != ".kernelgen-sync.json" for p in path.iterdir()):
        raise StoreError(f"not found: {text}")
    return path


__all__ = [
    "MANIFEST",
    "JsonlAppender",
    "LocalStore",
    "S3Config",
    "S3Store",
    "Store",
    "StoreError",
    "build_manifest",
    "fetch",
    "join_key",
    "open_output",
    "open_store",
    "parse_s3_uri",
    "sha256_bytes",
    "sha256_file",
    "verify_manifest",
    "write_manifest",
]
