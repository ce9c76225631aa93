"""A build's outcome on disk (`result.json` in its content-addressed build directory) and its hand-over through
the artifact store between the compile phase (CPU nodes) and the execute phase (NPU nodes); see split.py."""
from __future__ import annotations

import io
import json
import tarfile
import time
from dataclasses import asdict
from typing import Any

from ...model import CompileErrorClass, CompileResult, Verdict, Workspace
from .toolchain import BuildLayout

RESULT = "result.json"
# what an NPU node needs from a build: the private vendor tree, the extension and the records of the build
SHIPPED = ("opp", "out", RESULT, "symbols.json")


def result_json(res: CompileResult) -> dict:
    d = asdict(res)
    d["error_class"] = res.error_class.value if res.error_class else None
    d["verdict"] = res.verdict.value if res.verdict else None
    return d


def load_result(lay: BuildLayout) -> CompileResult | None:
    """The recorded outcome of a finished build, or None when it has not been built (here)."""
    f = lay.root / RESULT
    if not f.is_file():
        return None
    d = json.loads(f.read_text())
    return CompileResult(ok=d["ok"], seconds=d["seconds"], log=d["log"], cached=True,
                         error_class=CompileErrorClass(d["error_class"]) if d["error_class"] else None,
                         verdict=Verdict(d["verdict"]) if d["verdict"] else None)


def _keys(sha: str) -> tuple[str, str]:
    return f"{sha[:24]}.tar.gz", f"{sha[:24]}.json"


def publish_artifact(store: Any, ws: Workspace, lay: BuildLayout, res: CompileResult) -> None:
    """Upload one build (or the failed compile's result) for the execute phase. Timeouts/infra are not shipped."""
    if res.verdict in (Verdict.TIMEOUT, Verdict.INFRA_ERROR):
        return
    tar_key, json_key = _keys(ws.content_sha256)
    if res.ok:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as tar:
            for name in SHIPPED:
                if (lay.root / name).exists():
                    tar.add(lay.root / name, arcname=name)
        store.write_bytes(tar_key, buf.getvalue())
    store.write_json(json_key, result_json(res))   # written last: its presence means complete


def fetch_artifact(store: Any, ws: Workspace, lay: BuildLayout, t0: float) -> CompileResult:
    """The execute phase's compile(): the build as the compile phase left it in the store."""
    cached = load_result(lay)
    if cached is not None and (not cached.ok or lay.extension.is_file()):
        cached.seconds = time.monotonic() - t0
        return cached
    if store is None:
        return CompileResult(ok=False, seconds=0, log="execute phase without an artifact store "
                             "(set KERNELGEN_ASCEND_ARTIFACTS)", verdict=Verdict.INFRA_ERROR)
    tar_key, json_key = _keys(ws.content_sha256)
    if not store.exists(json_key):
        return CompileResult(ok=False, seconds=time.monotonic() - t0, verdict=Verdict.INFRA_ERROR,
                             log=f"build {json_key} not in the artifact store yet (compile phase pending)")
    d = store.read_json(json_key)
    if d["ok"]:
        lay.root.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(store.read_bytes(tar_key)), mode="r:gz") as tar:
            tar.extractall(lay.root, filter="data")
    (lay.root / RESULT).parent.mkdir(parents=True, exist_ok=True)
    (lay.root / RESULT).write_text(json.dumps(d))
    res = load_result(lay)
    res.seconds = time.monotonic() - t0
    return res
