"""The five resources of crds/samples/loop/, bound to this machine: artifacts under a local root (or a test's S3)
instead of the samples' bucket, the CoTBuild's corpus from the synthetic fixtures of tests/cot, and its teacher at the
scripted teacher's endpoint (tests/cot/scripted_server.py). Nothing else of the samples changes: models (unless a
caller points the TrainRun elsewhere), references, steps, tasks."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "crds" / "samples" / "loop"
COT_FIXTURES = REPO / "tests" / "cot" / "fixtures"
ORDER = ("loop-cot", "loop-sft", "loop-bench-sft", "loop-dpo", "loop-bench-dpo")


def sample_docs() -> list[dict[str, Any]]:
    return [yaml.safe_load(p.read_text()) for p in sorted(SAMPLES.glob("*.yaml"))]


def bind(doc: dict[str, Any], out_root: Path | str | dict[str, Any], teacher_url: str,
         corpus: Callable[[Path], str] = str) -> dict[str, Any]:
    """`out_root` a path (local runs), a file:// URI (a cluster, whose pods share the volume) or a whole `output`
    (S3 with its endpoint and secret); `corpus` gives the URI the CoTBuild reads for a fixture directory (the
    path itself, or where a test uploaded it)."""
    spec = doc["spec"]
    spec["output"] = dict(out_root) if isinstance(out_root, dict) else {"uri": str(out_root)}
    if doc["kind"] == "CoTBuild":
        spec["teacher"]["endpoint"] = teacher_url
        spec["sources"] = {"docs": [{"uri": corpus(COT_FIXTURES / "docs")}],
                           "kernels": [{"uri": corpus(COT_FIXTURES / "ops_repo"), "includeRoots": ["common/inc"]}],
                           "benchRecords": [{"uri": corpus(COT_FIXTURES / "benchrun")}]}
    return doc


def bound_docs(out_root: Path | str, teacher_url: str) -> list[dict[str, Any]]:
    return [bind(d, out_root, teacher_url) for d in sample_docs()]
