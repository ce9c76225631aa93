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
