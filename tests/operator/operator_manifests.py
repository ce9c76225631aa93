"""Run manifests for the operator tests (what a user would `kubectl apply`)."""

from __future__ import annotations

import json
from typing import Any

HOLD = "testenv.kernelgen.ai/hold"          # kwok keeps the pod Running while this annotation is present
EXIT_CODE = "testenv.kernelgen.ai/exit-code"
DISRUPT = "testenv.kernelgen.ai/disrupt"
MESSAGE = "testenv.kernelgen.ai/termination-message"

RESULTS = {"tasks": 4, "compileRate": 0.75, "execRate": 0.5, "passAt1": 0.5, "passAt10": 0.9, "speedupGeomean": 1.25}
REPORT = {"results": RESULTS}  # what `kernelgen bench report` writes to its termination message


def _annotations(hold: bool, exit_code: int | None, message: dict | None) -> dict[str, str]:
    ann: dict[str, str] = {}
    if hold:
        ann[HOLD] = "true"
    if exit_code is not None:
        ann[EXIT_CODE] = str(exit_code)
    if message is not None:
        ann[MESSAGE] = json.dumps(message)
    return ann


def benchrun(name: str, shards: int = 2, backend: str = "ascend", hold: bool = False, exit_code: int | None = None,
             message: dict | None = REPORT, **controls: Any) -> dict[str, Any]:
    """A BenchRun whose pods succeed (unless held or given an exit code); the report stage hands over `message`."""
    spec: dict[str, Any] = {
        "generator": {"engine": "vllm", "model": {"uri": "s3://models/kernelgen-lm-7b"}, "sampling": {"samples": 4}},
        "evaluation": {"backend": backend},
        "evalShards": shards,
        "output": {"uri": "s3://results/bench"},
        **controls,
    }
    ann = _annotations(hold, exit_code, message)
    if ann:
        spec["podTemplate"] = {"metadata": {"annotations": ann}}
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name}, "spec": spec}


def cotbuild(name: str, shards: int = 2, hold: bool = False, **controls: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "teacher": {"engine": "vllm", "model": {"uri": "s3://models/teacher"}, "npus": 2},
        "sources": {"docs": [{"uri": "s3://corpus/docs"}]},
        "shards": shards, "maxParallelShards": 2,
        "output": {"uri": "s3://datasets/cot"},
        **controls,
    }
    ann = _annotations(hold, None, None)
    if ann:
        spec["podTemplate"] = {"metadata": {"annotations": ann}}
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "CoTBuild", "metadata": {"name": name}, "spec": spec}


def trainrun(name: str, dataset: dict[str, Any], nodes: int = 1, npus: int = 8, **controls: Any) -> dict[str, Any]:
    spec = {
        "method": "SFT",
        "model": {"uri": "s3://models/base"},
        "dataset": dataset,
        "resources": {"numNodes": nodes, "npusPerNode": npus},
        "output": {"uri": "s3://models/out"},
        **controls,
    }
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "TrainRun", "metadata": {"name": name}, "spec": spec}
