"""A run killed twice and resumed gives the same records and metrics as an uninterrupted run."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kernelgen.bench.records import RecordLog, stable_view
from kernelgen.bench.tasks import load_suite

from .helpers import STAND_IN_FILE, make_task, stand_in

DRIVER = Path(__file__).resolve().parent / "resume_driver.py"


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    suite = tmp_path / "suite"
    make_task(suite, "Add", "add", level=1)
    make_task(suite, "Mul", "mul", level=2, category="Math", ref="args[0] * args[1]")
    tasks = {t.op_name: t for t in load_suite(suite).tasks}
    lines = []

    def cand(op, sample, expr, kernel_src="// k\n"):
        t = tasks[op]
        # each call takes a while, so the kills below land mid-run however fast the machine is
        slow = f"(__import__('time').sleep(0.3), {expr})[1]"
        lines.append({"task_id": op, "sample": sample,
                      "files": {f"op_kernel/{t.kernel_name}.cpp": kernel_src,
                                STAND_IN_FILE: stand_in(t.kernel_name, slow)}})
    cand("Add", 0, "args[0] + args[1]")
    cand("Add", 1, "args[0] + args[1] + 1")
    cand("Add", 2, "args[0]", kernel_src="#error nope\n")
    cand("Mul", 0, "args[0] * args[1]")
    cand("Mul", 1, "args[1] * args[0]")
    cand("Mul", 2, "1 / 0")
    jsonl = tmp_path / "gens.jsonl"
    jsonl.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return suite, jsonl


def _spec(tmp_path, suite, jsonl, out, name):
    doc = {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name},
           "spec": {"suite": {"uri": str(suite), "shapeMode": "dynamic"},
                    "candidates": {"source": "jsonl", "uri": str(jsonl)},
                    "evaluation": {"backend": "sim", "workers": 2, "runTimeoutSeconds": 60, "seed": 11},
                    "metrics": {"k": [1, 2, 3], "bootstrapSamples": 200},
                    "output": {"uri": str(out)}}}
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(doc))
    return p


def _start(spec_path):
    return subprocess.Popen([sys.executable, str(DRIVER), str(spec_path)], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def _kill_after(spec_path, records: Path, at_least: int) -> None:
    proc = _start(spec_path)
    deadline = time.time() + 120
    while _lines(records) < at_least and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.mark.slow
def test_killed_twice_and_resumed_equals_uninterrupted(tmp_path):
    suite, jsonl = _setup(tmp_path)
    out = tmp_path / "out"
    straight = _spec(tmp_path, suite, jsonl, out, "straight")
    p = _start(straight)
    assert p.wait(timeout=300) == 0, p.stderr.read().decode()[-2000:]

    resumed = _spec(tmp_path, suite, jsonl, out, "resumed")
    records = out / "resumed" / "records.jsonl"
    _kill_after(resumed, records, 3)
    first = _lines(records)
    _kill_after(resumed, records, first + 3)
    assert _lines(records) < 12
    p = _start(resumed)
    assert p.wait(timeout=300) == 0, p.stderr.read().decode()[-2000:]

    a = sorted(RecordLog(out / "straight" / "records.jsonl").load().values(), key=lambda r: r.key)
    b = sorted(RecordLog(records).load().values(), key=lambda r: r.key)
    assert len(a) == 12 and len(b) == 12
    assert _lines(records) == 12, "a resumed run must not evaluate any unit twice"
    strip = lambda r: {k: v for k, v in stable_view(r).items() if k != "run"}  # noqa: E731
    assert [strip(r) for r in a] == [strip(r) for r in b]
    sa = json.loads((out / "straight" / "summary.json").read_text())
    sb = json.loads((out / "resumed" / "summary.json").read_text())
    assert sa["metrics"] == sb["metrics"]
    o = sa["metrics"]["overall"]
    assert o["candidates"] == 6 and o["compile_rate"] == pytest.approx(5 / 6) and o["exec_rate"] == pytest.approx(3 / 6)
    assert o["pass_at_k"]["1"] == pytest.approx((1 / 3 + 2 / 3) / 2)
    assert sa["metrics"]["verdicts"]["candidates"] == {"ok": 3, "value_mismatch": 1, "compile_error": 1,
                                                       "runtime_error": 1}
    html = (out / "resumed" / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= 3 and "pass@k" in html
