"""Canary and quarantine, and the typed verdicts after_case gives NPU failures. The canary op needs an NPU, so the
canary COMMAND is a boundary double here (a Python one-liner that succeeds, fails or hangs)."""
from __future__ import annotations

import sys
import time

import pytest
from kernelgen.bench.backends.ascend.devices import DeviceHealth
from kernelgen.bench.model import CaseResult, Verdict

from .ascend_support import reference, task_named

OK = [sys.executable, "-c", "import os; print('canary ok on', os.environ['ASCEND_RT_VISIBLE_DEVICES'])"]
FAIL = [sys.executable, "-c", "import sys; print('EZ9999: Inner Error!'); sys.exit(3)"]
HANG = [sys.executable, "-c", "import time; time.sleep(60)"]


def test_passing_canary_keeps_the_device(tmp_path):
    h = DeviceHealth(tmp_path, canary_cmd=OK)
    ok, why = h.check(3)
    assert ok and "canary ok on 3" in why and h.quarantined(3) == ""


def test_failing_canary_quarantines_and_release_clears(tmp_path):
    h = DeviceHealth(tmp_path, canary_cmd=FAIL)
    ok, why = h.check(1)
    assert not ok and "exit code 3" in why
    assert "exit code 3" in DeviceHealth(tmp_path).quarantined(1)    # shared through the state file
    assert DeviceHealth(tmp_path).quarantined(0) == ""
    h.release(1)
    assert h.quarantined(1) == ""


def test_hanging_canary_is_killed_and_quarantines(tmp_path):
    h = DeviceHealth(tmp_path, canary_cmd=HANG, timeout_s=1)
    t0 = time.monotonic()
    ok, why = h.check(0)
    assert not ok and "timed out" in why and time.monotonic() - t0 < 10
    assert h.quarantined(0)


def _ws(recorded, sample_suite, canary):
    be = recorded.backend(canary_cmd=canary)
    task = task_named(sample_suite, "AddCustom")
    return be, be.prepare(task, reference(task), recorded.root / "ws"), task.cases[0]


AICORE = ("RuntimeError: call aclnnAddCustomKg1 failed, error code is 507015\n"
          "Kernel task happen error, retCode=0x26, [aicore exception].")


def test_aicore_exception_with_healthy_device_is_a_runtime_error(recorded, sample_suite):
    be, ws, case = _ws(recorded, sample_suite, OK)
    res = be.after_case(ws, case, CaseResult(verdict=Verdict.RUNTIME_ERROR, message=AICORE))
    assert res.verdict == Verdict.RUNTIME_ERROR and "npu fault: aicore_exception (code 507015)" in res.diagnostics


def test_aicore_exception_with_dead_device_quarantines_it(recorded, sample_suite):
    be, ws, case = _ws(recorded, sample_suite, FAIL)
    res = be.after_case(ws, case, CaseResult(verdict=Verdict.RUNTIME_ERROR, message=AICORE))
    assert res.verdict == Verdict.INFRA_ERROR and "quarantined" in res.message
    with pytest.raises(RuntimeError, match="quarantined"):
        be.runtime_env(ws)
    assert "quarantined" in be.available()[1]


def test_typed_verdicts_without_device_fault(recorded, sample_suite):
    be, ws, case = _ws(recorded, sample_suite, FAIL)     # the canary must not even run for these
    oom = be.after_case(ws, case, CaseResult(verdict=Verdict.RUNTIME_ERROR,
                                             message="RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB"))
    assert oom.verdict == Verdict.MEMORY_EXCEEDED
    load = be.after_case(ws, case, CaseResult(verdict=Verdict.RUNTIME_ERROR,
                                              message="RuntimeError: undefined symbol: aclnnAddCustomKg1"))
    assert load.verdict == Verdict.LOAD_ERROR
    wrong = CaseResult(verdict=Verdict.VALUE_MISMATCH, message="max abs err 3.0")
    assert be.after_case(ws, case, wrong).verdict == Verdict.VALUE_MISMATCH
    assert be.health.quarantined(0) == ""


def test_harness_timeout_runs_the_canary(recorded, sample_suite):
    be, ws, case = _ws(recorded, sample_suite, FAIL)
    res = be.after_case(ws, case, CaseResult(verdict=Verdict.TIMEOUT, message="case exceeded 120 s"))
    assert res.verdict == Verdict.INFRA_ERROR and be.health.quarantined(0)
