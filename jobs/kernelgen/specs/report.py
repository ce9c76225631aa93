"""The job -> operator report: what a run's final stage hands to the operator, defined once.

A pod cannot write its run's status (it has no API token); it writes one JSON object to its container's
termination message (`/dev/termination-log`, at most 4096 bytes), and the operator copies it into the run's
status. The report models below are built from the status models' own fields (same names, aliases, types and
descriptions), so the job's writer, the operator's reader and the CRD's status schema cannot drift apart:

| kind | final stage | status fields reported |
| --- | --- | --- |
| BenchRun | report | results, outputs |
| TrainRun | train (rank 0) | finalLoss, steps, modelURI, outputs |
| CoTBuild | merge | records, dropped, outputs |
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, ValidationError, create_model

from kernelgen.specs.benchrun import BenchRunStatus
from kernelgen.specs.common import RunStatus, SpecModel
from kernelgen.specs.cotbuild import CoTBuildStatus
from kernelgen.specs.trainrun import TrainRunStatus

log = logging.getLogger(__name__)

TERMINATION_LOG_ENV = "KERNELGEN_TERMINATION_LOG"
DEFAULT_TERMINATION_LOG = "/dev/termination-log"
# The kubelet keeps at most 4096 bytes of a termination message; a truncated JSON object would be lost whole.
MAX_MESSAGE_BYTES = 4096


class JobReport(SpecModel):
    """Base of the per-kind reports. Unknown keys are ignored when reading, so an operator older than the job
    image still takes the fields it knows."""

    model_config = ConfigDict(extra="ignore")

    def to_message(self) -> str:
        return json.dumps(self.model_dump(by_alias=True, exclude_none=True, mode="json"), sort_keys=True,
                          separators=(",", ":"))


def _report_model(status: type[RunStatus], fields: tuple[str, ...]) -> type[JobReport]:
    """A report model with these fields of `status`, each exactly as the status declares it."""
    name = status.__name__.removesuffix("Status") + "Report"
    picked = {f: (status.model_fields[f].annotation, status.model_fields[f]) for f in fields}
    model = create_model(name, __base__=JobReport, __module__=__name__, **picked)  # type: ignore[call-overload]
    model.__doc__ = f"What a {name.removesuffix('Report')}'s final stage reports: status fields {', '.join(fields)}."
    return model


BenchRunReport = _report_model(BenchRunStatus, ("results", "outputs"))
TrainRunReport = _report_model(TrainRunStatus, ("final_loss", "steps", "model_uri", "outputs"))
CoTBuildReport = _report_model(CoTBuildStatus, ("records", "dropped", "outputs"))

REPORTS: dict[str, type[JobReport]] = {
    "BenchRun": BenchRunReport,
    "TrainRun": TrainRunReport,
    "CoTBuild": CoTBuildReport,
}


def termination_log_path() -> Path:
    return Path(os.environ.get(TERMINATION_LOG_ENV, DEFAULT_TERMINATION_LOG))


def write_report(report: JobReport, path: Path | None = None) -> bool:
    """Write the report as the container's termination message. In a pod (KERNELGEN_RUN, which the operator sets,
    or an explicit KERNELGEN_TERMINATION_LOG) the file is created when missing: a runtime need not pre-create it.
    Elsewhere a no-op (False) unless the file exists: a local run has none."""
    in_pod = "KERNELGEN_RUN" in os.environ or TERMINATION_LOG_ENV in os.environ
    path = path or termination_log_path()
    if not path.exists() and not in_pod:
        return False
    text = report.to_message()
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ValueError(f"report of {len(text.encode())} bytes exceeds the {MAX_MESSAGE_BYTES}-byte termination "
                         "message limit")
    path.write_text(text)
    return True


def publish(run: Any, report: JobReport) -> None:
    """Hand a finished run's report on: as the pod's termination message (to the operator) and as the run record
    `<output>/<name>/run.json` (what `--runs-root` resolves references against, and a record beside the artifacts)."""
    from kernelgen.specs.refs import write_run_record

    write_report(report)
    write_run_record(run.output_uri(), run.kind_name, run.metadata.name,
                     report.model_dump(by_alias=True, exclude_none=True, mode="json"))


def parse_report(kind: str, text: str) -> dict[str, Any] | None:
    """The status fields (camelCase) of a termination message, or None when it is not a valid report of `kind`."""
    model = REPORTS.get(kind)
    if model is None or not text.strip().startswith("{"):
        return None
    try:
        report = model.model_validate_json(text)
    except ValidationError as e:
        log.warning("ignoring an invalid %s report: %s", kind, e.errors()[:3])
        return None
    return report.model_dump(by_alias=True, exclude_none=True, mode="json")
