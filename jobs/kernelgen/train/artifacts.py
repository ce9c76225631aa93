"""File-tree operations on artifact URIs (datasets in, checkpoints and models out), over `kernelgen.storage`.

Training thinks in whole URIs (a dataset file, a checkpoint folder); `kernelgen.storage` in stores and keys.
These helpers translate, so local paths, ``file://`` and ``s3://`` behave the same everywhere in training.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from kernelgen.storage import LocalStore, Store, open_store


def join(uri: str, *parts: str) -> str:
    return "/".join([uri.rstrip("/"), *(p.strip("/") for p in parts if p.strip("/"))])


def _split(uri: str) -> tuple[Store, str]:
    head, _, name = uri.rstrip("/").rpartition("/")
    return open_store(head or "."), name


def read_bytes(uri: str) -> bytes:
    store, key = _split(uri)
    return store.read_bytes(key)


def write_bytes(uri: str, data: bytes) -> None:
    store, key = _split(uri)
    store.write_bytes(key, data)


def exists(uri: str) -> bool:
    store, key = _split(uri)
    return store.exists(key)


def list_files(uri: str) -> list[str]:
    """Paths of all files under the folder/prefix `uri`, relative to it, sorted."""
    return open_store(uri).list()


def upload_dir(local: Path, uri: str) -> None:
    store = open_store(uri)
    for path in sorted(p for p in local.rglob("*") if p.is_file()):
        store.upload_file(path.relative_to(local).as_posix(), path)


def download_dir(uri: str, local: Path) -> None:
    store = open_store(uri)
    for key in store.list():
        store.download_file(key, local / key)


def delete_file(uri: str) -> None:
    store, key = _split(uri)
    store.delete(key)


def delete_dir(uri: str) -> None:
    store = open_store(uri)
    if isinstance(store, LocalStore):
        shutil.rmtree(store.root, ignore_errors=True)
        return
    for key in store.list():
        store.delete(key)
