"""References between runs (`fromCoTBuild`, `fromBenchRun`, `fromTrainRun`) and how each is resolved.

A reference names another run in the same namespace. It is resolved once the referenced run is Complete, by
taking one figure of that run's status and putting it in place of the reference in the spec the pods read:

| reference | referenced kind | status field taken | becomes |
| --- | --- | --- | --- |
| TrainRun `dataset.fromCoTBuild` | CoTBuild | `outputs.uri` | `dataset.uri` |
| TrainRun `preferences.fromBenchRun` | BenchRun | `outputs.uri` | `preferences.recordsUri` |
| TrainRun `model.fromTrainRun` | TrainRun | `modelURI` | `model.uri` |
| BenchRun `generator.model.fromTrainRun` | TrainRun | `modelURI` | `generator.model.uri` |

The operator resolves them against the runs' status in the cluster (waiting while a referenced run is not
Complete, failing when it failed); `kernelgen <kind> run --runs-root` resolves them against the run records
(`run.json`) that local runs leave under a root. Both apply the same table, through `overrides`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kernelgen.specs.common import GROUP_VERSION

RUN_RECORD = "run.json"  # <output>/<name>/run.json: kind, name and the final stage's report, left by local runs


@dataclass(frozen=True)
class Reference:
    kind: str                      # kind of the run that holds the reference
    path: str                      # camelCase spec path of the reference, e.g. "dataset.fromCoTBuild"
    target_kind: str               # kind of the referenced run
    status_field: tuple[str, ...]  # where the referenced run's status holds the value
    replaces: str                  # spec path the value goes to
    clears: tuple[str, ...] = ()   # spec paths that no longer apply once resolved


REFERENCES: tuple[Reference, ...] = (
    Reference("TrainRun", "dataset.fromCoTBuild", "CoTBuild", ("outputs", "uri"), "dataset.uri"),
    Reference("TrainRun", "preferences.fromBenchRun", "BenchRun", ("outputs", "uri"), "preferences.recordsUri"),
    Reference("TrainRun", "model.fromTrainRun", "TrainRun", ("modelURI",), "model.uri", ("model.ggufFile",)),
    Reference("BenchRun", "generator.model.fromTrainRun", "TrainRun", ("modelURI",), "generator.model.uri",
              ("generator.model.ggufFile", "generator.model.tokenizer")),
)


class UnresolvedReference(ValueError):
    """A run still names another run where a job needs a URI (the operator or --runs-root resolves it)."""


def _get(doc: Any, path: tuple[str, ...] | list[str]) -> Any:
    for key in path:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc


def references(run: Any) -> list[tuple[Reference, str]]:
    """(reference, referenced run name) for every reference set in a run's spec."""
    spec = run.spec.to_yaml_dict()
    out = []
    for ref in REFERENCES:
        if ref.kind == run.kind_name:
            target = _get(spec, ref.path.split("."))
            if target:
                out.append((ref, target["name"]))
    return out


def status_value(ref: Reference, status: dict[str, Any]) -> str | None:
    value = _get(status, ref.status_field)
    return value if isinstance(value, str) and value else None


def overrides(ref: Reference, value: str) -> dict[str, Any]:
    """Spec paths to set (None: remove) once `ref` resolves to `value`."""
    return {ref.replaces: value, ref.path: None, **{p: None for p in ref.clears}}


def apply_overrides(spec_doc: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Set or remove (value None) camelCase paths in a spec document, in place; returns it."""
    for path, value in changes.items():
        node = spec_doc
        *parents, last = path.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    return spec_doc


def resolved(run: Any, changes: dict[str, Any]) -> Any:
    """A copy of `run` with the overrides applied (validated again)."""
    from kernelgen.specs.load import load_spec

    doc = run.to_yaml_dict()
    doc.pop("status", None)
    apply_overrides(doc["spec"], changes)
    return load_spec(doc)


def require_resolved(run: Any) -> None:
    """Raise UnresolvedReference when a job is asked to run a spec that still holds references."""
    left = references(run)
    if left:
        names = ", ".join(f"{ref.path}: {name}" for ref, name in left)
        raise UnresolvedReference(f"{run.kind_name} {run.metadata.name} references other runs ({names}); run it "
                                  "through the operator, or locally with --runs-root where those runs wrote")


# ------------------------------------------------------------------------------------------------ local records

def run_record(kind: str, name: str, report: dict[str, Any]) -> dict[str, Any]:
    """What a finished local run leaves in RUN_RECORD: its identity and, as status, the final stage's report."""
    return {"apiVersion": GROUP_VERSION, "kind": kind, "metadata": {"name": name},
            "status": {"phase": "Succeeded", **report}}


def write_run_record(output_uri: str, kind: str, name: str, report: dict[str, Any]) -> None:
    from kernelgen.storage import open_store

    open_store(output_uri).write_json(RUN_RECORD, run_record(kind, name, report))


def resolve_local(run: Any, runs_root: str) -> Any:
    """The run with its references resolved against the run records under `runs_root` (<root>/<name>/run.json).
    Raises UnresolvedReference when a referenced run has not finished there or is of another kind."""
    from kernelgen.storage import StoreError, open_store

    changes: dict[str, Any] = {}
    root = open_store(runs_root)
    for ref, name in references(run):
        key = f"{name}/{RUN_RECORD}"
        try:
            record = json.loads(root.read_bytes(key)) if root.exists(key) else None
        except (StoreError, OSError, ValueError):
            record = None
        if not isinstance(record, dict):
            raise UnresolvedReference(f"{ref.path}: {ref.target_kind} {name} has not completed under {runs_root} "
                                      f"(no {key})")
        if record.get("kind") != ref.target_kind:
            raise UnresolvedReference(f"{ref.path}: {name} under {runs_root} is a {record.get('kind')}, "
                                      f"not a {ref.target_kind}")
        value = status_value(ref, record.get("status") or {})
        if value is None:
            raise UnresolvedReference(f"{ref.path}: {ref.target_kind} {name} finished without status."
                                      f"{'.'.join(ref.status_field)}")
        changes.update(overrides(ref, value))
    return resolved(run, changes) if changes else run
