"""The evaluator hands every case result to the backend's after_case hook: a real sandboxed case run on the CPU,
with the NPU replaced by a stand-in kernel_gen_ops module (boundary double) that fails the way torch_npu reports an
AI Core exception, and a canary command double that reports the device dead."""
from __future__ import annotations

import sys
from pathlib import Path

from kernelgen.bench.backends.ascend import AscendBackend
from kernelgen.bench.evaluate import EvalSettings, Evaluator
from kernelgen.bench.model import CompileResult, RuntimeEnv, Verdict
from kernelgen.bench.records import RecordLog

from .ascend_support import reference, task_named

FAULT = ('raise RuntimeError("call aclnnAddCustomKg1 failed, error code is 507015\\n'
         '[ERROR] Kernel task happen error, retCode=0x26, [aicore exception].")')


class CpuStandIn(AscendBackend):
    """AscendBackend with compile and the device replaced: cases run on the CPU against a Python module."""

    def __init__(self, module_dir: Path, **kw):
        super().__init__(**kw)
        self.module_dir = module_dir

    def compile(self, ws, timeout_s):
        return CompileResult(ok=True, seconds=0.0)

    def runtime_env(self, ws):
        return RuntimeEnv(env={}, python_path=[self.module_dir], device="cpu")


def _run(tmp_path, sample_suite, body: str, canary_ok: bool):
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "kernel_gen_ops.py").write_text(f"def add_custom(x, y):\n    {body}\n")
    canary = [sys.executable, "-c", f"import sys; sys.exit(0 if {canary_ok} else 4)"]
    be = CpuStandIn(mod, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state", canary_cmd=canary)
    task = task_named(sample_suite, "AddCustom")
    log = RecordLog(tmp_path / "records.jsonl")
    ev = Evaluator(be, EvalSettings(max_cases=1, run_timeout_s=120), log, run="t", workdir=tmp_path / "wd")
    out = ev.run_all([(task, reference(task), task.cases[:1])])
    return be, out, list(log.load().values())


def test_device_fault_in_a_case_quarantines_the_device(tmp_path, sample_suite):
    be, out, records = _run(tmp_path, sample_suite, FAULT, canary_ok=False)
    assert records == [] and len(out.infra) == 1 and "quarantined" in out.infra[0].message
    # the why travels with it (the case's diagnostics: here the device's fault), for the pod's log and the state file
    assert "aicore" in out.infra[0].message.split("\n", 1)[1], out.infra[0].message
    assert be.health.quarantined(0)


def test_device_fault_on_a_healthy_device_is_a_scored_runtime_error(tmp_path, sample_suite):
    _be, out, records = _run(tmp_path, sample_suite, FAULT, canary_ok=True)
    assert out.infra == [] and [r.verdict for r in records] == [Verdict.RUNTIME_ERROR.value]
    assert any("aicore_exception" in d for d in records[0].diagnostics)


def test_correct_results_pass_through(tmp_path, sample_suite):
    be, _out, records = _run(tmp_path, sample_suite, "return x + y", canary_ok=False)
    assert [r.verdict for r in records] == [Verdict.OK.value] and not be.health.quarantined(0)
