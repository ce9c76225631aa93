from __future__ import annotations

import copy
from typing import Any

import pytest

BENCH = {
    "apiVersion": "kernelgen.ai/v1alpha1",
    "kind": "BenchRun",
    "metadata": {"name": "br1"},
    "spec": {
        "suite": {"uri": "builtin", "levels": [1, 2]},
        "generator": {"engine": "vllm", "model": {"uri": "s3://models/kernelgen-lm"}, "sampling": {"samples": 10}},
        "evaluation": {"runTimeoutSeconds": 60},
        "output": {"uri": "s3://results/bench"},
    },
}
TRAIN = {
    "apiVersion": "kernelgen.ai/v1alpha1",
    "kind": "TrainRun",
    "metadata": {"name": "sft1"},
    "spec": {
        "method": "SFT",
        "model": {"uri": "/models/base"},
        "dataset": {"fromCoTBuild": {"name": "cot1"}},
        "hyperparameters": {"preset": "paper", "extra": {"gradient_checkpointing": True}},
        "resources": {"numNodes": 2, "npusPerNode": 8, "memory": "64Gi", "cpu": 16},
        "output": {"uri": "s3://models/out"},
    },
}
COT = {
    "apiVersion": "kernelgen.ai/v1alpha1",
    "kind": "CoTBuild",
    "metadata": {"name": "cot1"},
    "spec": {
        "teacher": {"engine": "openai", "endpoint": "http://teacher:8000/v1", "model": {"uri": "teacher"}},
        "sources": {"docs": [{"uri": "s3://corpus/docs"}], "benchRecords": [{"uri": "s3://results/bench/br1"}]},
        "shards": 4,
        "allowedFailedShards": 1,
        "output": {"uri": "s3://datasets/cot"},
    },
}


@pytest.fixture
def bench() -> dict[str, Any]:
    return copy.deepcopy(BENCH)


@pytest.fixture
def train() -> dict[str, Any]:
    return copy.deepcopy(TRAIN)


@pytest.fixture
def cot() -> dict[str, Any]:
    return copy.deepcopy(COT)
