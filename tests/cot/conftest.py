from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))      # scripted.py


def spec_doc(out: Path, *, stages=None, teacher=None, **over) -> dict:
    """A CoTBuild over every synthetic fixture, decontaminated against the fixture benchmark."""
    spec = {
        "teacher": teacher or {"engine": "transformers", "model": {"uri": "/models/none", "ggufFile": "none.gguf"},
                               "sampling": {"maxTokens": 64, "temperature": 0}, "retries": 1},
        "sources": {"docs": [{"uri": str(FIXTURES / "docs")}],
                    "kernels": [{"uri": str(FIXTURES / "ops_repo"), "includeRoots": ["common/inc"]}],
                    "projects": [{"uri": str(FIXTURES / "ops_repo")}],
                    "general": [{"uri": str(FIXTURES / "general")}],
                    "benchRecords": [{"uri": str(FIXTURES / "benchrun")}]},
        "filters": {"minChars": 60, "perplexity": {"scorer": "ngram", "max": 2.0}},
        "decontamination": {"suiteUri": str(FIXTURES / "bench_suite"), "blocklist": ["FIXTURE-BENCH-CANARY"]},
        "output": {"uri": str(out)},
    }
    if stages:
        spec["stages"] = stages
    spec.update(over)
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "CoTBuild", "metadata": {"name": "cot-test"}, "spec": spec}


# The leaks planted in the fixtures, as (stage, item suffix, layer). Decontamination must drop these and only these.
PLANTED = {
    ("docs", "soft_shrink_notes.md#Semantics", "text_ngram"),
    ("kernel", "math/leaky_clip/op_kernel/leaky_clip.cpp", "name"),
    ("kernel", "math/row_scale/op_kernel/row_scale.cpp", "similarity"),
    ("project", "math/leaky_clip", "name"),
    ("general", "alpaca_en.json:7", "name"),             # its "# aclnnLeakyClip" heading names the API
    ("general", "alpaca_en.json:8", "blocklist"),
    ("debug", "level1/Math/LeakyClip:0", "name"),
}


def planted_match(report: list[dict]) -> set[tuple[str, str, str]]:
    out = set()
    for d in report:
        suffix = next((p[1] for p in PLANTED if d["item"].endswith(p[1])), d["item"])
        out.add((d["stage"], suffix, d["reason"]))
    return out


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
