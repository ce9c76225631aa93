"""Both ways of starting a case worker: the fork server (default, covered by test_sandbox) and a freshly executed
interpreter (KERNELGEN_SANDBOX=exec, also the fallback). Same verdicts either way."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from kernelgen.bench import sandbox
from kernelgen.bench.model import RuntimeEnv, Verdict
from kernelgen.bench.tasks import load_task

from .helpers import PyStandInBackend, candidate, make_task, stand_in

CASES = {
    "ok": (stand_in("add", "args[0] + args[1]"), Verdict.OK),
    "segfault": (stand_in("add", "os.kill(os.getpid(), signal.SIGSEGV)", prelude="import os, signal"),
                 Verdict.RUNTIME_ERROR),
    "timeout": (stand_in("add", "time.sleep(60)", prelude="import time"), Verdict.TIMEOUT),
}


def test_exec_mode_gives_the_same_verdicts(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELGEN_SANDBOX", "exec")
    task = load_task(make_task(tmp_path, "Add", "add"))
    be = PyStandInBackend()

    def one(name):
        ws = be.prepare(task, candidate(task, 0, CASES[name][0]), tmp_path / "w" / name)
        # the sleeping candidate gets a short limit: its verdict is TIMEOUT whether it is cut in its sleep or,
        # on a loaded machine, still importing torch
        return name, sandbox.run_case(task, task.cases[0], be.runtime_env(ws), seed=1,
                                      timeout_s=8 if name == "timeout" else 90,
                                      memory_mib=1024, scratch=tmp_path / "s" / name)

    with ThreadPoolExecutor(3) as pool:
        got = dict(pool.map(one, CASES))
    for name, (_, verdict) in CASES.items():
        assert got[name].verdict == verdict, (name, got[name].message)
        assert not any("fork server" in d for d in got[name].diagnostics)


def test_loader_variables_force_a_fresh_interpreter(monkeypatch):
    monkeypatch.delenv("KERNELGEN_SANDBOX", raising=False)
    assert sandbox._use_zygote(RuntimeEnv(env={"FOO": "1"}, python_path=[], device="cpu"))
    assert not sandbox._use_zygote(RuntimeEnv(env={"LD_LIBRARY_PATH": "/x"}, python_path=[], device="cpu"))
