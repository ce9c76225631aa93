"""The kernel backends a BenchRun can name (`evaluation.backend`), registered once.

Each entry says what the backend needs: NPUs per evaluator pod (when `evaluation.npus` is unset), the evaluation
fields its factory reads, and the module that prints a run's command sequence without running it, if it has one.
The spec's enum, the CLI, the harness (kernelgen.bench.backends.get_backend imports
`kernelgen.bench.backends.<name>`) and the operator's pod shapes read this table instead of comparing names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class BackendInfo:
    name: str
    summary: str
    npus: int                          # NPUs an evaluator pod asks for when evaluation.npus is unset
    options: tuple[str, ...] = ()      # Evaluation fields (Python names) handed to the backend's factory
    dry_run: str | None = None         # "module:function(spec, out=print) -> exit code" printing a run's commands


BACKENDS: dict[str, BackendInfo] = {b.name: b for b in (
    BackendInfo("sim", "the ascsim CPU simulator", npus=0, options=("sync_check",)),
    BackendInfo("ascend", "a real NPU with the CANN toolchain", npus=1,
                dry_run="kernelgen.bench.backends.ascend.dryrun:dry_run"),
)}

BackendName = Literal[tuple(BACKENDS)]  # type: ignore[valid-type]  # the enum of evaluation.backend


def backend_options(evaluation: Any) -> dict[str, Any]:
    """The keyword options a spec's evaluation block passes to its backend's factory."""
    return {o: getattr(evaluation, o) for o in BACKENDS[evaluation.backend].options}


def evaluator_npus(evaluation: Any) -> int:
    """NPUs per evaluator pod: the spec's `npus`, else what the backend needs."""
    return evaluation.npus if evaluation.npus is not None else BACKENDS[evaluation.backend].npus
