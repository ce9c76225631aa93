"""File-tree operations on artifact URIs used by training: datasets in, checkpoints and models out.

Local paths and ``file://`` URIs are handled here directly; ``s3://`` goes through ``kernelgen.storage``
(boto3), so credentials and endpoints are configured in one place.
"""
from __future__ import annotations

import shutil
from pathlib import Path


def is_remote(uri: str) -> bool:
    return uri.startswith("s3://")


def local_path(uri: str) -> Path:
    return Path(uri.removeprefix("file://")).expanduser()


def join(uri: str, *parts: str) -> str:
    return "/".join([uri.rstrip("/"), *(p.strip("/") for p in parts)])


def _store(uri: str):
    from kernelgen import storage

    return storage.open_store(uri)


def read_bytes(uri: str) -> bytes:
    if is_remote(uri):
        return _store(uri).get_bytes(uri)
    return local_path(uri).read_bytes()


def write_bytes(uri: str, data: bytes) -> None:
    if is_remote(uri):
        _store(uri).put_bytes(uri, data)
        return
    path = local_path(uri)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def exists(uri: str) -> bool:
    if is_remote(uri):
        return _store(uri).exists(uri)
    return local_path(uri).exists()


def list_files(uri: str) -> list[str]:
    """Relative paths of all files under the prefix `uri`, sorted."""
    if is_remote(uri):
        return sorted(_store(uri).list(uri))
    root = local_path(uri)
    if not root.is_dir():
        return []
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def upload_dir(local: Path, uri: str) -> None:
    for path in sorted(p for p in local.rglob("*") if p.is_file()):
        rel = str(path.relative_to(local))
        if is_remote(uri):
            _store(uri).put_file(join(uri, rel), path)
        else:
            target = local_path(join(uri, rel))
            if target.resolve() == path.resolve():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def download_dir(uri: str, local: Path) -> None:
    local.mkdir(parents=True, exist_ok=True)
    for rel in list_files(uri):
        target = local / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if is_remote(uri):
            _store(uri).get_file(join(uri, rel), target)
        else:
            shutil.copy2(local_path(join(uri, rel)), target)


def delete_file(uri: str) -> None:
    if is_remote(uri):
        _store(uri).delete(uri)
    else:
        local_path(uri).unlink(missing_ok=True)


def delete_dir(uri: str) -> None:
    if is_remote(uri):
        store = _store(uri)
        for rel in store.list(uri):
            store.delete(join(uri, rel))
    else:
        shutil.rmtree(local_path(uri), ignore_errors=True)
