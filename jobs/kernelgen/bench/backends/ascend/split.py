"""Compile on CPU nodes, execute on NPU nodes: the evaluate stage split in two, handing builds over through the
artifact store, so NPUs never wait on compiles.

Knob (environment of the evaluate pods, or AscendBackend options):
  KERNELGEN_ASCEND_PHASE=compile   CPU node with the CANN toolkit: `python -m kernelgen.bench.backends.ascend.split
                                   compile --spec F --shard i --shards N` builds every candidate of the shard in a
                                   pool sized to the cores and uploads each build (and each failed compile's
                                   result) to KERNELGEN_ASCEND_ARTIFACTS/<content sha>.tar.gz / .json.
  KERNELGEN_ASCEND_PHASE=execute   NPU node: the ordinary `kernelgen bench evaluate --spec F --shard i --shards N`;
                                   compile() fetches the build by content hash instead of compiling (a missing one
                                   is an infrastructure failure, so a rerun picks it up once it is uploaded).
  KERNELGEN_ASCEND_PHASE=all       (default) both in one process.
KERNELGEN_ASCEND_ARTIFACTS is any store URI (s3://bucket/prefix, a path); by default `<run output>/ascend-artifacts`.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...model import CompileResult, Verdict, Workspace

if TYPE_CHECKING:
    from . import AscendBackend
    from .toolchain import BuildLayout

# what an NPU node needs from a build: the private vendor tree, the extension and the records of the build
SHIPPED = ("opp", "out", "result.json", "symbols.json")


def _keys(sha: str) -> tuple[str, str]:
    return f"{sha[:24]}.tar.gz", f"{sha[:24]}.json"


def publish_artifact(backend: AscendBackend, ws: Workspace, lay: BuildLayout, res: CompileResult) -> None:
    """Upload one build (or the failed compile's result) for the execute phase. Timeouts/infra are not shipped."""
    from . import _result_json
    if res.verdict in (Verdict.TIMEOUT, Verdict.INFRA_ERROR):
        return
    tar_key, json_key = _keys(ws.content_sha256)
    if res.ok:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as tar:
            for name in SHIPPED:
                if (lay.root / name).exists():
                    tar.add(lay.root / name, arcname=name)
        backend.artifacts.write_bytes(tar_key, buf.getvalue())
    backend.artifacts.write_json(json_key, _result_json(res))   # written last: its presence means complete


def fetch_artifact(backend: AscendBackend, ws: Workspace, lay: BuildLayout, t0: float) -> CompileResult:
    cached = backend.cached_result(lay)
    if cached is not None and (not cached.ok or lay.extension.is_file()):
        cached.seconds = time.monotonic() - t0
        return cached
    if backend.artifacts is None:
        return CompileResult(ok=False, seconds=0, log="execute phase without an artifact store "
                             "(set KERNELGEN_ASCEND_ARTIFACTS)", verdict=Verdict.INFRA_ERROR)
    tar_key, json_key = _keys(ws.content_sha256)
    if not backend.artifacts.exists(json_key):
        return CompileResult(ok=False, seconds=time.monotonic() - t0, verdict=Verdict.INFRA_ERROR,
                             log=f"build {json_key} not in the artifact store yet (compile phase pending)")
    d = backend.artifacts.read_json(json_key)
    if d["ok"]:
        lay.root.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(backend.artifacts.read_bytes(tar_key)), mode="r:gz") as tar:
            tar.extractall(lay.root, filter="data")
    (lay.root / "result.json").parent.mkdir(parents=True, exist_ok=True)
    (lay.root / "result.json").write_text(json.dumps(d))
    res = backend.cached_result(lay)
    res.seconds = time.monotonic() - t0
    return res


@dataclass
class CompileShardOutcome:
    built: int = 0
    cached: int = 0
    failed: int = 0         # compile errors (results, shipped to the execute phase)
    infra: int = 0          # timeouts / infrastructure (not shipped; a rerun retries)


def compile_all(backend: AscendBackend, work: list[tuple[Any, Any, Any]], workdir: Path, timeout_s: float,
                workers: int | None = None) -> CompileShardOutcome:
    """prepare + compile every (task, candidate, cases) in a pool sized to the cores; builds are cached by content
    hash (identical candidates build once) and published when the backend has an artifact store."""
    n = workers or max(1, os.cpu_count() or 1)
    backend.tc.jobs = max(1, (os.cpu_count() or 1) // n)   # cores split between concurrent builds
    outcome = CompileShardOutcome()

    def one(item: tuple[Any, Any, Any]) -> CompileResult:
        task, cand, _ = item
        ws = backend.prepare(task, cand, workdir / task.task_id / f"sample{cand.sample}")
        return backend.compile(ws, timeout_s)

    with ThreadPoolExecutor(max_workers=n, thread_name_prefix="kg-ascend-compile") as pool:
        for res in pool.map(one, work):
            if res.ok:
                outcome.cached += res.cached
                outcome.built += not res.cached
            elif res.verdict in (Verdict.TIMEOUT, Verdict.INFRA_ERROR):
                outcome.infra += 1
            else:
                outcome.failed += 1
    return outcome


def compile_stage(spec: Any, *, shard: int = 0, shards: int | None = None, backend: Any = None) -> CompileShardOutcome:
    """The CPU-node half of the evaluate stage for one shard (same sharding as `kernelgen bench evaluate`)."""
    from kernelgen.bench.evaluate import EvalSettings, plan
    from kernelgen.bench.run import Progress, RunDir, candidates_for, select_tasks

    from . import AscendBackend
    shards = shards or spec.spec.eval_shards
    rd = RunDir(spec)
    if backend is None:
        art = os.environ.get("KERNELGEN_ASCEND_ARTIFACTS") or rd.store.child("ascend-artifacts")
        backend = AscendBackend(phase="compile", artifacts=art)
    suite = select_tasks(spec)
    cands = candidates_for(spec, rd, suite.tasks, Progress(), write=False)
    settings = EvalSettings.from_spec(spec)
    work = [w for w in plan(suite.tasks, cands, settings, shard=shard, shards=shards)
            if not w[1].parse_error and f"op_kernel/{w[0].kernel_name}.cpp" in w[1].files]
    with tempfile.TemporaryDirectory(prefix=f"kg-ascend-compile-{shard}-") as wd:
        return compile_all(backend, work, Path(wd), settings.compile_timeout_s, settings.workers)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="kernelgen.bench.backends.ascend.split")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compile", help="build one shard's candidates and upload them (CPU node)")
    c.add_argument("--spec", "-f", type=Path, required=True)
    c.add_argument("--shard", type=int, default=0)
    c.add_argument("--shards", type=int, default=None)
    args = ap.parse_args(argv)
    import yaml

    from kernelgen.specs import load_spec
    spec = load_spec(yaml.safe_load(args.spec.read_text()))
    out = compile_stage(spec, shard=args.shard, shards=args.shards)
    print(json.dumps(out.__dict__))
    return 1 if out.infra else 0


if __name__ == "__main__":
    sys.exit(main())
