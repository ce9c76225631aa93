"""`kernelgen bench run --backend ascend --dry-run`: the exact command sequence per task, nothing executed.

For each (task, candidate) the backend prepares the workspace for real (unique op name, renamed sources, msopgen
op description, rewritten pybind.cpp) and prints: the files written, every build command with its working
directory and environment, the artifact and symbol-origin checks, and the per-case worker command with the
runtime environment of the NPU run.
"""
from __future__ import annotations

import json
import shlex
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kernelgen.bench.evaluate import EvalSettings, plan
from kernelgen.bench.hooks import StageHooks
from kernelgen.bench.rundir import RunDir, candidates_for, select_tasks

from . import AscendBackend


def describe(backend: AscendBackend, task: Any, cand: Any, cases: list, workdir: Path) -> Iterator[str]:
    ws = backend.prepare(task, cand, workdir)
    m = backend.meta(ws)
    lay = backend.layout(ws)
    yield f"# task {task.task_id}  sample {cand.sample}  ({cand.origin})"
    yield f"# op {task.op_name} -> {m['op_unique']}   kernel {task.kernel_name} -> {m['kernel_unique']}   " \
          f"vendor {m['vendor']}   content sha256 {ws.content_sha256[:16]}"
    if m["error"]:
        yield f"# not built: {m['error']} (recorded as compile_error, class scope)"
        return
    yield f"# build dir (content-addressed cache entry): {lay.root}"
    yield f"# 0. write sources: {', '.join(sorted(str(p.relative_to(ws.root / 'src')) for p in (ws.root / 'src').rglob('*') if p.is_file()))}"
    yield f"#    write {lay.op_json}: {json.dumps(json.loads(m['op_json']))}"
    steps = backend.steps(ws)
    base = steps[0].env
    yield "# build environment: " + " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(base.items())
                                            if k not in ("PATH", "HOME", "LANG", "TMPDIR"))
    for i, step in enumerate(steps, 1):
        yield f"# {i}. {step.name}"
        yield step.shell(base)
    yield f"# {len(steps) + 1}. checks (harness): {lay.extension} exists; {lay.opapi_lib(m['vendor'])} exists; " \
          f"{lay.vendor_dir(m['vendor'])}/op_impl/**/{m['op_unique']}*.o exists; ELF .dynsym of libcust_opapi.so " \
          f"defines aclnn{m['op_unique']}GetWorkspaceSize and aclnn{m['op_unique']}; {lay.extension.name} defines " \
          "neither and does not link libcust_opapi"
    rt = backend.runtime_env(ws)
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(rt.env.items()))
    from kernelgen.bench.sandbox import HARNESS_ROOT, network_isolation
    py = ":".join([*(str(p) for p in rt.python_path), str(HARNESS_ROOT)])
    prefix = shlex.join(network_isolation()[0])
    yield f"# {len(steps) + 2}. run {len(cases)} case(s), one fresh sandboxed process each, one at a time on the device " \
          f"({rt.device} after the visibility mask):"
    yield (f"{prefix + ' ' if prefix else ''}env PYTHONPATH={shlex.quote(str(HARNESS_ROOT))} {shlex.quote(sys.executable)} "
           "-m kernelgen.bench.judge prepare <judge job.json>   # trusted: inputs + reference, never the candidate")
    yield (f"env {env} PYTHONPATH={shlex.quote(py)} {shlex.quote(sys.executable)} "
           "-m kernelgen.bench.runner <runner job.json>   # jailed: namespaces, uid nobody, read-only root, /dev bound")
    yield (f"{prefix + ' ' if prefix else ''}env PYTHONPATH={shlex.quote(str(HARNESS_ROOT))} {shlex.quote(sys.executable)} "
           "-m kernelgen.bench.judge compare <judge job.json>   # trusted: every call's outputs, the verdict")
    yield "#    after an AI Core exception or timeout: canary op on the device; quarantine it if the canary fails"


def dry_run(spec: Any, backend: AscendBackend | None = None, out=print) -> int:
    backend = backend or AscendBackend(phase="all")
    suite = select_tasks(spec)
    rd = RunDir(spec)
    cands = candidates_for(spec, rd, suite.tasks, StageHooks(), write=False)
    work = plan(suite.tasks, cands, EvalSettings.from_spec(spec))
    ok, why = backend.available()
    out(f"# kernelgen ascend backend: DRY RUN of {len(work)} candidate(s) from {suite.root} (nothing is executed)")
    out(f"# toolchain: ASCEND_HOME_PATH={backend.tc.ascend_home} soc={backend.tc.soc} "
        f"compute_unit={backend.tc.compute_unit} torch_npu={backend.tc.torch_npu_dir}")
    out(f"# versions: {backend.versions()}")
    out(f"# this machine can {'run' if ok else 'NOT run'} it: {why}")
    with tempfile.TemporaryDirectory(prefix="kg-ascend-dry-") as wd:
        for task, cand, cases in work:
            out("")
            for line in describe(backend, task, cand, cases, Path(wd) / task.task_id / f"sample{cand.sample}"):
                out(line)
    return 0
