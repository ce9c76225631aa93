"""The five resources of crds/samples/loop/, bound to this machine: artifacts under a local root instead of S3,
the CoTBuild's corpus from the synthetic fixtures of tests/cot, and its teacher at the scripted teacher's
endpoint (tests/cot/scripted_server.py). Nothing else of the samples changes: models, references, steps, tasks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "crds" / "samples" / "loop"
COT_FIXTURES = REPO / "tests" / "cot" / "fixtures"
ORDER = ("loop-cot", "loop-sft", "loop-bench-sft", "loop-dpo", "loop-bench-dpo")


def sample_docs() -> list[dict[str, Any]]:
    return [yaml.safe_load(p.read_text()) for p in sorted(SAMPLES.glob("*.yaml"))]


def bind(doc: dict[str, Any], out_root: Path | str, teacher_url: str) -> dict[str, Any]:
    """`out_root` a path (local runs) or a file:// URI (a cluster, whose pods share the volume)."""
    spec = doc["spec"]
    spec["output"] = {"uri": str(out_root)}
    if doc["kind"] == "CoTBuild":
        spec["teacher"]["endpoint"] = teacher_url
        spec["sources"] = {"docs": [{"uri": str(COT_FIXTURES / "docs")}],
                           "kernels": [{"uri": str(COT_FIXTURES / "ops_repo"), "includeRoots": ["common/inc"]}],
                           "benchRecords": [{"uri": str(COT_FIXTURES / "benchrun")}]}
    return doc


def bound_docs(out_root: Path | str, teacher_url: str) -> list[dict[str, Any]]:
    return [bind(d, out_root, teacher_url) for d in sample_docs()]
