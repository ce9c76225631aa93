"""The sandboxed case runner against the real worker, with the test-only stand-in backend double.

All scenarios start their worker processes concurrently (module fixture) because each worker imports torch
(~3 s); every test then asserts one scenario's typed verdict.
"""
from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor

import pytest

from kernelgen.bench.model import Verdict
from kernelgen.bench.sandbox import network_isolation, run_case
from kernelgen.bench.tasks import load_task

from .helpers import PyStandInBackend, candidate, make_task, stand_in

SCENARIOS = {
    "ok": stand_in("add", "args[0] + args[1]"),
    "value": stand_in("add", "args[0] + args[1] + 0.01"),
    "tiny_error": stand_in("add", "(args[0].double() + args[1].double() + 1e-6).to(args[0].dtype)"),
    "shape": stand_in("add", "(args[0] + args[1]).reshape(-1)[:-1]"),
    # another kind (a floating output in another floating dtype is compared by value: the binding allocates it)
    "dtype": stand_in("add", "(args[0] + args[1]).to(torch.int32)"),
    "nan": stand_in("add", "torch.where(args[0] > 0, args[0] + args[1], torch.full_like(args[0], float('nan')))"),
    "mutation": stand_in("add", "args[0].add_(args[1])"),
    # the same write, by an op whose definition declares it updates that input (CANN's Ref form)
    "inplace_op_mutation": stand_in("add", "args[0].add_(args[1])"),
    "inplace_op_wrong": stand_in("add", "args[0].add_(args[1]).add_(0.5)"),
    "missing_fn": stand_in("other_name", "args[0]"),
    "raises": stand_in("add", "1 / 0"),
    "segfault": stand_in("add", "print('last words', file=sys.stderr, flush=True) or os.kill(os.getpid(), signal.SIGSEGV)",
                         prelude="import os, signal, sys"),
    "timeout": stand_in("add", "time.sleep(60)", prelude="import time"),
    "memory": stand_in("add", "torch.empty(1 << 36, dtype=torch.uint8).fill_(1)"),
    "network": stand_in("add", "socket.create_connection(('1.1.1.1', 53), timeout=3) and args[0] + args[1]",
                        prelude="import socket"),
    "pid_namespace": stand_in("add", "(args[0] + args[1]) if os.getppid() == 0 and "
                              "not any(p.isdigit() and int(p) > 1000 for p in os.listdir('/proc')) else 1 / 0",
                              prelude="import os"),
    "prints": stand_in("add", "print('KERNELGEN_CASE_RESULT {\"verdict\": \"ok\"}') or (args[0] - args[1])"),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("suite")
    task = load_task(make_task(root, "Add", "add"))
    backend = PyStandInBackend()
    case = task.cases[0]

    def one(name):
        ws = backend.prepare(task, candidate(task, 0, SCENARIOS[name]), root / "work" / name)
        assert backend.compile(ws, 10).ok
        timeout = 8 if name == "timeout" else 60
        rt = dataclasses.replace(backend.runtime_env(ws), inplace_op=name.startswith("inplace_op"))
        return name, run_case(task, case, rt, seed=7, timeout_s=timeout, memory_mib=1024,
                              scratch=root / "scratch" / name,
                              timing={"warmup": 1, "trials": 3} if name == "ok" else None)

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(one, SCENARIOS))


@pytest.mark.parametrize("name,verdict", [
    ("ok", Verdict.OK), ("value", Verdict.VALUE_MISMATCH), ("tiny_error", Verdict.OK),
    ("shape", Verdict.SHAPE_MISMATCH), ("dtype", Verdict.DTYPE_MISMATCH), ("nan", Verdict.NAN_MISMATCH),
    ("mutation", Verdict.INPUT_MUTATION), ("inplace_op_mutation", Verdict.OK),
    ("inplace_op_wrong", Verdict.VALUE_MISMATCH), ("missing_fn", Verdict.LOAD_ERROR), ("raises", Verdict.RUNTIME_ERROR),
    ("segfault", Verdict.RUNTIME_ERROR), ("timeout", Verdict.TIMEOUT), ("memory", Verdict.MEMORY_EXCEEDED),
    ("prints", Verdict.VALUE_MISMATCH),
])
def test_typed_verdicts(results, name, verdict):
    res = results[name]
    assert res.verdict == verdict, (name, res.verdict, res.message, res.diagnostics[-3:])
    if verdict != Verdict.OK:
        assert res.message, "a failing case must say why"


def test_messages_explain_the_failure(results):
    assert "outside tolerance" in results["value"].message
    assert "shape" in results["shape"].message and "expected" in results["shape"].message
    assert "int32" in results["dtype"].message
    assert "NaN" in results["nan"].message
    assert "input 0" in results["mutation"].message
    assert "SIGSEGV" in results["segfault"].message
    assert "last words" in results["segfault"].diagnostics   # what a crashed candidate printed last: its log's tail
    assert "ZeroDivisionError" in results["raises"].message


def test_timing_is_recorded(results):
    ok = results["ok"]
    assert len(ok.candidate_ms) == 3 and len(ok.baseline_ms) == 3
    assert all(t > 0 for t in ok.candidate_ms + ok.baseline_ms)
    assert ok.max_abs_err is not None and ok.max_abs_err <= 1e-6


def test_no_network_inside_the_worker(results):
    prefix, how = network_isolation()
    if not prefix:
        pytest.skip(f"network namespaces unavailable here: {how}")
    assert results["network"].verdict == Verdict.RUNTIME_ERROR
    assert "OSError" in results["network"].message or "Network" in results["network"].message


def test_cases_cannot_see_the_harness_processes(results):
    from kernelgen.bench.sandbox import zygote_isolation
    prefix, how = zygote_isolation()
    if "-p" not in prefix and "-rnpf" not in prefix:
        pytest.skip(f"PID namespaces unavailable here: {how}")
    assert results["pid_namespace"].verdict == Verdict.OK, results["pid_namespace"].message


def test_timeout_kills_process_group_quickly(results):
    assert results["timeout"].seconds < 20
