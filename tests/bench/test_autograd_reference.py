"""A reference model that differentiates its inputs (torch.autograd.grad inside torch.enable_grad, on inputs that
the task's get_inputs creates with requires_grad=True, as NPUKernelBench's gradient tasks do) runs in the judge: the
inputs keep requires_grad on their way to the reference, and a candidate computing the same gradient passes."""
from __future__ import annotations

from kernelgen.bench.model import Verdict
from kernelgen.bench.sandbox import run_case
from kernelgen.bench.tasks import load_task

from .helpers import PyStandInBackend, candidate, make_task, stand_in

MODULE = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, dy, x):
        with torch.enable_grad():
            y = x * x * x
            return torch.autograd.grad(outputs=y, inputs=x, grad_outputs=dy)[0]


class ModelNew(nn.Module):
    def forward(self, dy, x):
        import kernel_gen_ops
        return kernel_gen_ops.cube_grad(dy, x)
'''

PREPARE = '''
import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[4]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    dy = torch.rand(shape, dtype=dtype, device=device)
    x = torch.rand(shape, dtype=dtype, device=device, requires_grad=True)
    return (dy, x)


def get_init_inputs(param, device=None):
    return []
'''


def test_reference_differentiating_its_inputs_is_judged(tmp_path):
    d = make_task(tmp_path, "CubeGrad", "cube_grad")
    (d / "validation" / "module.py").write_text(MODULE)
    (d / "validation" / "prepare_inputs.py").write_text(PREPARE)
    task = load_task(d)
    backend = PyStandInBackend()
    verdicts = {}
    for name, expr in {"right": "3 * args[1] * args[1] * args[0]", "wrong": "2 * args[1] * args[0]"}.items():
        ws = backend.prepare(task, candidate(task, 0, stand_in("cube_grad", expr)), tmp_path / "work" / name)
        assert backend.compile(ws, 10).ok
        res = run_case(task, task.cases[0], backend.runtime_env(ws), seed=3, timeout_s=60, memory_mib=1024,
                       scratch=tmp_path / "scratch" / name)
        verdicts[name] = (res.verdict, res.message)
    assert verdicts["right"][0] == Verdict.OK, verdicts["right"]
    assert verdicts["wrong"][0] == Verdict.VALUE_MISMATCH, verdicts["wrong"]
