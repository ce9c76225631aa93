"""A BenchRun whose output is an s3:// prefix on the real S3 test server: artifacts land in the bucket, and a
report stage on a fresh machine (empty staging cache) rebuilds the same metrics from the bucket alone."""
from __future__ import annotations

import json
import shutil

import pytest

from kernelgen.bench.run import run, stage_report
from kernelgen.specs import load_spec
from kernelgen.storage import open_store

from .helpers import PyStandInBackend, make_task

pytestmark = [pytest.mark.s3]


def test_run_to_s3_and_report_from_the_bucket(s3_env, tmp_path, monkeypatch):
    from kernelgen.storage import s3
    monkeypatch.setattr(s3, "DEFAULT_CACHE", tmp_path / "cache" / "s3")
    make_task(tmp_path / "suite", "Add", "add")
    bucket = s3_env.new_bucket()
    spec = load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "s3run"},
                      "spec": {"suite": {"uri": str(tmp_path / "suite")}, "candidates": {"source": "reference"},
                               "metrics": {"k": [1], "bootstrapSamples": 50},
                               "output": {"uri": f"s3://{bucket}/runs"}}})
    res = run(spec, backend=PyStandInBackend())
    assert res.exit_code == 0, res.messages
    store = open_store(f"s3://{bucket}/runs/s3run")
    keys = set(store.list(""))
    assert {"records.jsonl", "candidates.jsonl", "summary.json", "report.md", "report.html", "manifest.json"} <= keys
    assert store.read_json("summary.json")["metrics"]["overall"]["exec_rate"] == 1.0

    shutil.rmtree(tmp_path / "cache")          # a fresh pod: nothing staged locally
    again = stage_report(spec)
    assert again.summary["metrics"] == json.loads(store.read_text("summary.json"))["metrics"]


class CountingBackend(PyStandInBackend):
    """The stand-in double, counting the candidates it compiles (what a resumed run still had to do)."""

    def __init__(self):
        self.compiled = 0

    def compile(self, ws, timeout_s):
        self.compiled += 1
        return super().compile(ws, timeout_s)


def test_a_fresh_pod_resumes_from_the_records_in_the_bucket(s3_env, tmp_path, monkeypatch):
    """A pod killed mid-evaluate left part of records.jsonl in the bucket (its last push, a torn line at the end);
    the next pod starts with nothing staged, resumes from the bucket and evaluates only what is missing."""
    from kernelgen.storage import s3
    monkeypatch.setattr(s3, "DEFAULT_CACHE", tmp_path / "cache" / "s3")
    make_task(tmp_path / "suite", "Add", "add")
    make_task(tmp_path / "suite", "Mul", "mul", ref="args[0] * args[1]")
    bucket = s3_env.new_bucket()
    spec = load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "resumed"},
                      "spec": {"suite": {"uri": str(tmp_path / "suite")}, "candidates": {"source": "reference"},
                               "evaluation": {"seed": 3}, "metrics": {"k": [1], "bootstrapSamples": 0},
                               "output": {"uri": f"s3://{bucket}/runs"}}})
    first = CountingBackend()
    assert run(spec, backend=first).exit_code == 0
    store = open_store(f"s3://{bucket}/runs/resumed")
    lines = store.read_text("records.jsonl").splitlines(keepends=True)
    tasks = sorted({json.loads(ln)["task_id"] for ln in lines})
    assert first.compiled == 2 and len(tasks) == 2
    first_task = tasks[0]
    kept = [ln for ln in lines if json.loads(ln)["task_id"] == first_task]
    store.write_text("records.jsonl", "".join(kept) + lines[-1][:25])     # one task's records, then a torn line
    shutil.rmtree(tmp_path / "cache")

    again = CountingBackend()
    res = run(spec, backend=again)
    assert res.exit_code == 0, res.messages
    assert again.compiled == 1 and res.outcome.skipped == len(kept)
    after = [json.loads(ln) for ln in store.read_text("records.jsonl").splitlines()]
    assert len(after) == len(lines) and after[: len(kept)] == [json.loads(ln) for ln in kept]
    assert res.summary["metrics"]["overall"]["exec_rate"] == 1.0
