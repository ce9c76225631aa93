"""The run manifest: every artifact of a run with its size and sha256, so results can be checked and compared."""

from __future__ import annotations

from datetime import datetime, UTC
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kernelgen.storage.base import sha256_bytes, sha256_file

if TYPE_CHECKING:
    from kernelgen.storage.base import Store

MANIFEST = "manifest.json"
MANIFEST_VERSION = 1


def build_manifest(store: Store, prefix: str = "", extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Hash every object under prefix (except manifests). `extra` (kind, name, spec hash...) is stored alongside."""
    from kernelgen.storage.local import LocalStore

    files: dict[str, dict[str, Any]] = {}
    for key in store.list(prefix):
        if key == MANIFEST or key.endswith("/" + MANIFEST):
            continue
        if isinstance(store, LocalStore):  # stream large local files instead of reading them whole
            path: Path = store.path(key)
            files[key] = {"sha256": sha256_file(path), "size": path.stat().st_size}
        else:
            data = store.read_bytes(key)
            files[key] = {"sha256": sha256_bytes(data), "size": len(data)}
    return {
        "version": MANIFEST_VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "root": store.uri,
        **(extra or {}),
        "files": files,
    }


def write_manifest(store: Store, extra: dict[str, Any] | None = None, key: str = MANIFEST) -> str:
    """Build and write the manifest of the whole store; returns its URI (for status.outputs.manifestURI)."""
    store.write_json(key, build_manifest(store, extra=extra))
    return store.url(key)


def verify_manifest(store: Store, key: str = MANIFEST) -> list[str]:
    """Problems found: missing files and content that no longer matches its hash (empty list: all good)."""
    manifest = store.read_json(key)
    problems = []
    for name, entry in sorted(manifest.get("files", {}).items()):
        if not store.exists(name):
            problems.append(f"{name}: missing")
        elif store.sha256(name) != entry["sha256"]:
            problems.append(f"{name}: sha256 mismatch")
    return problems
