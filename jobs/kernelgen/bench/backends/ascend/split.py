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
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from kernelgen.bench.evaluate import EvalSettings, plan
from kernelgen.bench.hooks import StageHooks
from kernelgen.bench.rundir import RunDir, candidates_for, select_tasks
from kernelgen.specs import load_spec

from ...model import CompileResult, Verdict
from . import AscendBackend


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
    shards = shards or spec.spec.eval_shards
    rd = RunDir(spec)
    if backend is None:
        art = os.environ.get("KERNELGEN_ASCEND_ARTIFACTS") or rd.store.child("ascend-artifacts")
        backend = AscendBackend(phase="compile", artifacts=art)
    suite = select_tasks(spec)
    cands = candidates_for(spec, rd, suite.tasks, StageHooks(), write=False)
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
    spec = load_spec(yaml.safe_load(args.spec.read_text()))
    out = compile_stage(spec, shard=args.shard, shards=args.shards)
    print(json.dumps(out.__dict__))
    return 1 if out.infra else 0


if __name__ == "__main__":
    sys.exit(main())
