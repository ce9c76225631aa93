"""The long-lived judge (`kernelgen.bench.judge_server`): one per evaluator thread, reused across cases, and no
case's task code can change how the next case is judged; a step that hangs takes only its server with it."""
from __future__ import annotations

import json
import os

import pytest

from kernelgen.bench import sandbox
from kernelgen.bench.model import Verdict
from kernelgen.bench.sandbox import run_case
from kernelgen.bench.tasks import load_task

from .helpers import PyStandInBackend, candidate, make_task, stand_in

pytestmark = pytest.mark.skipif(os.environ.get("KERNELGEN_SANDBOX", "zygote") != "zygote",
                                reason="the judge server belongs to the fork-server mode")

# module.py runs at import in the judge: this one leaves torch's default dtype at float64 behind
DTYPE_CHANGER = "__import__('torch').set_default_dtype(__import__('torch').float64) or (args[0] + args[1])"
# a reference whose value depends on the default dtype: the next case must see float32 again
DEFAULT_DTYPE_USER = ("(args[0] + args[1]) * (2 if __import__('torch').get_default_dtype() == "
                      "__import__('torch').float32 else 3)")


def _run(root, name, ref, body, **kw):
    task = load_task(make_task(root / name, name, "add", ref=ref))
    backend = PyStandInBackend()
    ws = backend.prepare(task, candidate(task, 0, stand_in("add", body)), root / "work" / name)
    assert backend.compile(ws, 10).ok
    return task, run_case(task, task.cases[0], backend.runtime_env(ws), seed=3, timeout_s=30, memory_mib=1024,
                          scratch=root / "scratch" / name, **kw)


def test_one_server_judges_consecutive_cases_and_task_state_does_not_leak(tmp_path):
    _, first = _run(tmp_path, "Changer", DTYPE_CHANGER, "args[0] + args[1]")
    assert first.verdict == Verdict.OK, first.message
    server = sandbox._JUDGES.server
    pid = server.waiter["pid"]
    _, second = _run(tmp_path, "User", DEFAULT_DTYPE_USER, "(args[0] + args[1]) * 2")
    assert second.verdict == Verdict.OK, (second.verdict, second.message)
    assert sandbox._JUDGES.server is server and server.alive() and server.waiter["pid"] == pid
    assert not any("judge server unavailable" in d for d in first.diagnostics + second.diagnostics)


def test_a_hanging_step_takes_only_its_server(tmp_path):
    task, res = _run(tmp_path, "Fine", "args[0] + args[1]", "args[0] + args[1]", keep_scratch=True)
    assert res.verdict == Verdict.OK
    slow = load_task(make_task(tmp_path / "Slow", "Slow", "add", ref="__import__('time').sleep(60) or args[0]"))
    judge_dir = next((tmp_path / "scratch" / "Fine").glob("case-*/judge"))
    job = json.loads((judge_dir / "job.json").read_text())
    job["validation_dir"] = str(slow.validation_dir)
    (judge_dir / "job.json").write_text(json.dumps(job))
    server = sandbox._judge_server()
    ran = server.step("prepare", judge_dir / "job.json", judge_dir / "slow.log", judge_dir,
                      sandbox._base_env(judge_dir), timeout_s=3)
    assert ran.timed_out and not server.alive()
    _, after = _run(tmp_path, "After", "args[0] + args[1]", "args[0] + args[1] + 1")
    assert after.verdict == Verdict.VALUE_MISMATCH, after.message   # judged, by a new server
    assert sandbox._JUDGES.server is not server


def test_a_finished_thread_leaves_no_server_behind(tmp_path):
    import gc
    import threading

    seen = {}

    def one():
        _, res = _run(tmp_path, "Thread", "args[0] + args[1]", "args[0] + args[1]")
        seen["verdict"], seen["dir"] = res.verdict, sandbox._JUDGES.server.dir

    t = threading.Thread(target=one)
    t.start()
    t.join()
    gc.collect()
    assert seen["verdict"] == Verdict.OK
    assert not seen["dir"].exists(), "the thread's judge server was not closed when its thread ended"
