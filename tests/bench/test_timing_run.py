"""evaluation.timing: raw times of every timed call land in the records, speedup = median(baseline)/median(candidate)."""
from __future__ import annotations

import statistics

import pytest

from kernelgen.bench.records import RecordLog
from kernelgen.bench.run import run
from kernelgen.specs import load_spec

from .helpers import PyStandInBackend, make_task


def test_timed_run_records_raw_times_and_speedup(tmp_path):
    make_task(tmp_path / "suite", "Add", "add")
    spec = load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "t"},
                      "spec": {"suite": {"uri": str(tmp_path / "suite"), "shapeMode": "dynamic"},
                               "candidates": {"source": "reference"},
                               "evaluation": {"timing": True, "warmup": 2, "trials": 5},
                               "metrics": {"k": [1], "bootstrapSamples": 0},
                               "output": {"uri": str(tmp_path / "out")}}})
    res = run(spec, backend=PyStandInBackend())
    assert res.exit_code == 0, res.messages
    recs = list(RecordLog(tmp_path / "out" / "t" / "records.jsonl").load().values())
    assert len(recs) == 2
    for r in recs:
        assert r.verdict == "ok" and len(r.candidate_ms) == 5 and len(r.baseline_ms) == 5
        assert r.speedup == pytest.approx(statistics.median(r.baseline_ms) / statistics.median(r.candidate_ms))
    want = statistics.geometric_mean([r.speedup for r in recs])
    assert res.summary["metrics"]["overall"]["speedup_geomean"] == pytest.approx(want)
