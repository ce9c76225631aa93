"""Test helpers: tiny NPUKernelBench-layout tasks written on the fly, and the test-only backend double.

`PyStandInBackend` is a BOUNDARY DOUBLE for a real kernel backend (sim/ascend compile AscendC; that cannot be
assumed in these tests). It "compiles" a candidate by taking its Python stand-in for the `kernel_gen_ops`
extension (file `op_kernel/stand_in/kernel_gen_ops.py` of the candidate: inside a folder a candidate may use) and fails with a syntax-class compile error when
the kernel source contains `#error`. A kernel source may instead carry the stand-in inline as a
`// stand-in: <python expression over args>` line (how the fake LLM's kernel-only answers do it). Everything after compile — the sandboxed worker, comparison, records,
metrics — is the real harness.
"""
from __future__ import annotations

import shutil
import textwrap
import time
from pathlib import Path

from kernelgen.bench.model import (Backend, Candidate, CompileErrorClass, CompileResult, RuntimeEnv, Task, Verdict,
                                   Workspace)

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED = REPO_ROOT / ".." / "shared"
FIXTURE_TASKS = SHARED / "fixtures" / "npukernelbench-sample" / "tasks"

MODULE_TEMPLATE = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, *args):
        return {ref}


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, *args):
        import kernel_gen_ops
        return kernel_gen_ops.{kernel}(*args)
'''

PREPARE_TEMPLATE = '''
import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[4]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    return tuple(torch.randn(shape, dtype=dtype, device=device) for _ in range({n_inputs}))


def get_init_inputs(param, device=None):
    return []
'''


def make_task(root: Path, op: str, kernel: str, *, level: int = 1, category: str = "Math",
              csv: str = "case_id;shape;dtype\n0;[4, 33];float32\n1;[17];float16\n",
              ref: str = "args[0] + args[1]", n_inputs: int = 2, with_answer: bool = True) -> Path:
    d = root / f"level{level}" / category / op
    (d / "question" / "op_kernel").mkdir(parents=True, exist_ok=True)
    (d / "question" / "op_host").mkdir(parents=True, exist_ok=True)
    (d / "validation").mkdir(parents=True, exist_ok=True)
    (d / "api_desc.md").write_text(f"# aclnn{op}\n\n## Functional Description\n\nTest op {op}.\n")
    (d / "question" / "op_kernel" / f"{kernel}.cpp").write_text(
        f'#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void {kernel}(GM_ADDR x, GM_ADDR y, '
        f'GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {{}}\n')
    (d / "question" / "op_host" / f"{kernel}.cpp").write_text(
        "// host template\ncontext->SetBlockDim(platform_ascendc::PlatformAscendCManager::GetInstance()"
        "->GetCoreNumAiv());\n")
    (d / "validation" / "module.py").write_text(MODULE_TEMPLATE.format(ref=ref, kernel=kernel))
    (d / "validation" / "prepare_inputs.py").write_text(PREPARE_TEMPLATE.format(n_inputs=n_inputs))
    (d / "validation" / "pybind.cpp").write_text("// binding (unused by the stand-in backend)\n")
    (d / "validation" / "test_cases.csv").write_text(csv)
    if with_answer:
        (d / "answer" / "0" / "op_kernel").mkdir(parents=True, exist_ok=True)
        (d / "answer" / "0" / "op_kernel" / f"{kernel}.cpp").write_text("// reference kernel\n")
        (d / "answer" / "0" / STAND_IN_FILE).parent.mkdir(parents=True, exist_ok=True)
        (d / "answer" / "0" / STAND_IN_FILE).write_text(stand_in(kernel, ref))
    return d


STAND_IN_FILE = "op_kernel/stand_in/kernel_gen_ops.py"


def stand_in(kernel: str, expr: str, prelude: str = "") -> str:
    return textwrap.dedent(f"""
        import torch
        {prelude}
        def {kernel}(*args):
            return {expr}
        """)


def candidate(task: Task, sample: int, body: str, *, kernel_src: str = "// kernel\n") -> Candidate:
    return Candidate(task_id=task.task_id, sample=sample, origin="test",
                     files={f"op_kernel/{task.kernel_name}.cpp": kernel_src, STAND_IN_FILE: body})


class PyStandInBackend(Backend):
    """Test-only boundary double for a kernel backend (see module docstring)."""

    name = "py-standin-test-double"

    def versions(self) -> dict[str, str]:
        return {"py-standin": "1"}

    def available(self) -> tuple[bool, str]:
        return True, ""

    def prepare(self, task: Task, cand: Candidate, workdir: Path) -> Workspace:
        workdir = Path(workdir)
        if workdir.exists():
            shutil.rmtree(workdir)
        workdir.mkdir(parents=True)
        for rel, text in cand.files.items():
            (workdir / rel).parent.mkdir(parents=True, exist_ok=True)
            (workdir / rel).write_text(text)
        return Workspace(root=workdir, task=task, candidate=cand, content_sha256="")

    def compile(self, ws: Workspace, timeout_s: float) -> CompileResult:
        t0 = time.perf_counter()
        src = ws.candidate.files.get(f"op_kernel/{ws.task.kernel_name}.cpp", "")
        if "#error" in src:
            return CompileResult(ok=False, seconds=time.perf_counter() - t0, log="kernel.cpp:1: error: #error",
                                 error_class=CompileErrorClass.SYNTAX, verdict=Verdict.COMPILE_ERROR)
        stand = ws.root / STAND_IN_FILE
        marker = next((ln.split("stand-in:", 1)[1].strip() for ln in src.splitlines() if "stand-in:" in ln), None)
        if not stand.exists() and marker:   # a generated kernel-only answer carries its Python stand-in inline
            stand.parent.mkdir(parents=True, exist_ok=True)
            stand.write_text(stand_in(ws.task.kernel_name, marker))
        if not stand.exists():
            return CompileResult(ok=False, seconds=0.0, log="error: no stand-in",
                                 error_class=CompileErrorClass.OTHER, verdict=Verdict.COMPILE_ERROR)
        return CompileResult(ok=True, seconds=time.perf_counter() - t0)

    def runtime_env(self, ws: Workspace) -> RuntimeEnv:
        return RuntimeEnv(env={}, python_path=[(ws.root / STAND_IN_FILE).parent], device="cpu")
