"""Run a BenchRun spec end to end, or one stage of it (what the operator's pods call).

Stages: candidates (generate, or load reference/jsonl/directory) -> evaluate (sharded) -> report.
Artifacts live under ``<spec.output.uri>/<metadata.name>/``, handled through kernelgen.bench.rundir.

Exit codes (RunResult.exit_code): 0 done — failing kernels are results; 1 infrastructure failure (some work
could not be evaluated; a rerun resumes it); 3 no kernel backend available here (nothing evaluated, the
report says so). Invalid specs (2) are rejected before any of this runs.
"""
from __future__ import annotations

import json
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kernelgen.storage import write_manifest

from .backends import BackendUnavailable, backend_for
from .evaluate import EvalOutcome, EvalSettings, Evaluator, fresh_seed, plan
from .generate_stage import GenerateResult, run_generate
from .hooks import StageHooks
from .metrics import MetricsConfig, compute, status_results
from .model import EvalRecord, Task
from .records import RecordLog, read_records
from .report import write_reports
from .rundir import (
    CANDIDATES,
    RECORDS,
    SEED_FILE,
    SPEC_COPY,
    STAGE_STATE,
    RunDir,
    candidates_for,
    select_tasks,
    shard_key,
)

EXIT_OK, EXIT_INFRA, EXIT_NO_BACKEND = 0, 1, 3


@dataclass
class RunResult:
    out_dir: Path
    exit_code: int = EXIT_OK
    summary: dict[str, Any] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    report_paths: dict[str, Path] = field(default_factory=dict)
    outcome: EvalOutcome | None = None


def stage_generate(spec: Any, rd: RunDir | None, tasks: list[Task] | None, hooks: StageHooks, *,
                   shard: int = 0, shards: int = 1) -> GenerateResult:
    """Run the generate stage. In process (rd and tasks given) it writes candidates.jsonl here; as a pod
    entrypoint (rd None) the stage syncs its own shard file with the store."""
    if rd is None:
        return run_generate(spec, shard=shard, shards=shards, progress=hooks)
    key = shard_key(CANDIDATES)
    rd.pull(key)
    try:
        return run_generate(spec, tasks=tasks, out_path=rd.path / key, progress=hooks)
    finally:
        rd.push(key)


def stage_evaluate(spec: Any, *, shard: int = 0, shards: int | None = None, progress: StageHooks | None = None,
                   backend: Any = None) -> RunResult:
    progress = progress or StageHooks()
    shards = shards or spec.spec.eval_shards
    rd = RunDir(spec)
    result = RunResult(out_dir=rd.path)
    suite = select_tasks(spec)
    for e in suite.errors:
        progress.message(f"warning: malformed task skipped: {e}")
    cands = candidates_for(spec, rd, suite.tasks, progress, write=(shard == 0))
    if shard == 0:   # the spec the records were made under, for `kernelgen bench report --run-dir`
        (rd.path / SPEC_COPY).write_text(spec.model_dump_json(by_alias=True, exclude_none=True, indent=2))
        rd.push(SPEC_COPY)
    settings = EvalSettings.from_spec(spec)
    settings.seed = _run_seed(rd, settings.seed)
    work = plan(suite.tasks, cands, settings, shard=shard, shards=shards)
    total = sum(len(cases) for _, _, cases in work)
    key = shard_key(RECORDS, shard, shards)
    rd.pull(key)
    if backend is None:
        try:
            backend = backend_for(spec.spec.evaluation)
            ok, why = backend.available()
        except BackendUnavailable as e:
            ok, why = False, str(e)
        if not ok:
            msg = f"no kernel backend is available: {spec.spec.evaluation.backend}: {why}"
            result.exit_code, result.messages = EXIT_NO_BACKEND, [msg]
            _write_state(rd, f"evaluate-{shard}", {"status": "no-backend", "message": msg, "units": total,
                                                   "tasks": len(suite.tasks), "candidates": len(work)})
            return result
    log = RecordLog(rd.path / key)
    progress.start("evaluate", total)
    pushed = [time.monotonic()]

    def on_record(rec: EvalRecord) -> None:
        progress.advance("evaluate", 1)
        if rd.remote and time.monotonic() - pushed[0] > 30:
            pushed[0] = time.monotonic()
            rd.push(key)

    with tempfile.TemporaryDirectory(prefix=f"kg-{spec.metadata.name}-{shard}-") as workdir:
        ev = Evaluator(backend, settings, log, run=spec.metadata.name, workdir=Path(workdir),
                       on_record=on_record, on_skip=lambda n: progress.advance("evaluate", n))
        try:
            outcome = ev.run_all(work)
        finally:
            rd.push(key)
    result.outcome = outcome
    _write_state(rd, f"evaluate-{shard}", {"status": "done", "units": total, "evaluated": outcome.evaluated,
                                           "tasks": len(suite.tasks), "candidates": len(work),
                                           "skipped": outcome.skipped,
                                           "infra_failures": [asdict(f) for f in outcome.infra]})
    if outcome.infra:
        result.exit_code = EXIT_INFRA
        result.messages.append(f"{len(outcome.infra)} unit(s) hit infrastructure failures (not scored; a rerun "
                               f"retries them); first: {_first_lines(outcome.infra[0].message)}")
    return result


def _first_lines(message: str, lines: int = 12, chars: int = 1500) -> str:
    """The message's head (what failed, then the sandbox's or judge's log tail), indented under the summary line."""
    return "\n  ".join(message.splitlines()[:lines])[:chars]


def _run_seed(rd: RunDir, seed: int | None) -> int:
    """The spec's seed, or the run's fresh one: drawn once, kept in seed.json so a resumed run (and anyone
    reproducing it with `evaluation.seed`) sees the same inputs."""
    if seed is not None:
        return int(seed)
    rd.pull(SEED_FILE)
    path = rd.path / SEED_FILE
    try:
        return int(json.loads(path.read_text())["seed"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    seed = fresh_seed()
    path.write_text(json.dumps({"seed": seed}))
    rd.push(SEED_FILE)
    return seed


def _write_state(rd: RunDir, name: str, state: dict) -> None:
    d = rd.path / STAGE_STATE
    d.mkdir(exist_ok=True)
    (d / f"{name}.json").write_text(json.dumps(state, indent=2, default=str))
    rd.push(f"{STAGE_STATE}/{name}.json")


def stage_report(spec: Any, *, progress: StageHooks | None = None) -> RunResult:
    progress = progress or StageHooks()
    rd = RunDir(spec)
    rd.pull(STAGE_STATE)
    result = RunResult(out_dir=rd.path)
    records = read_records(rd.shard_paths(RECORDS))
    states = {p.stem: json.loads(p.read_text()) for p in sorted((rd.path / STAGE_STATE).glob("*.json"))}
    notes = [s["message"] for s in states.values() if s.get("status") == "no-backend"]
    infra = [f for s in states.values() for f in s.get("infra_failures", [])]
    if not records and not notes:
        notes.append("no records yet: the evaluate stage has not written any")
    m = spec.spec.metrics
    metrics = compute(records, MetricsConfig(ks=list(m.k), fast_ps=list(m.fast_p),
                                             bootstrap_samples=m.bootstrap_samples,
                                             confidence=m.confidence))
    versions = records[0].versions if records else {}
    summary = {
        "run": spec.metadata.name, "suite": spec.spec.suite.uri, "shape_mode": spec.spec.suite.shape_mode,
        "tasks": len({r.task_id for r in records}), "candidate_source": spec.spec.candidates.source,
        "backend": spec.spec.evaluation.backend, "versions": versions, "metrics": metrics,
        "results": status_results(metrics), "notes": notes, "infra_failures": infra,
        "outputs": {"uri": spec.output_uri(), "manifestURI": f"{spec.output_uri()}/manifest.json"},
    }
    evals = [s for k, s in states.items() if k.startswith("evaluate")]
    summary["planned"] = {"units": sum(s.get("units", 0) for s in evals),
                          "candidates": sum(s.get("candidates", 0) for s in evals),
                          "suite_tasks": max((s.get("tasks", 0) for s in evals), default=0)}
    try:
        summary["seed"] = int(json.loads((rd.path / SEED_FILE).read_text())["seed"])
    except (OSError, ValueError, KeyError, TypeError):
        summary["seed"] = spec.spec.evaluation.seed
    result.summary = summary
    result.report_paths = write_reports(rd.path, summary, records)
    try:
        if not rd.remote:
            write_manifest(rd.store, extra={"kind": "BenchRun", "name": spec.metadata.name})
    except Exception as e:  # the manifest is provenance; its failure is reported, the results stand
        result.messages.append(f"manifest not written: {e}")
    rd.push("summary.json", "report.md", "report.html", "tasks")
    if rd.remote:
        write_manifest(rd.store, extra={"kind": "BenchRun", "name": spec.metadata.name})
    if notes and not records:
        result.exit_code = EXIT_NO_BACKEND if any("no kernel backend" in n for n in notes) else EXIT_OK
    if infra:
        result.exit_code = EXIT_INFRA
    return result


def run(spec: Any, *, progress: StageHooks | None = None, backend: Any = None) -> RunResult:
    """All stages in this process (the local `kernelgen bench run`)."""
    progress = progress or StageHooks()
    rd = RunDir(spec)
    if spec.spec.candidates.source == "generate":
        suite = select_tasks(spec)
        stage_generate(spec, rd, suite.tasks, progress)
    ev = stage_evaluate(spec, shard=0, shards=1, progress=progress, backend=backend)
    rep = stage_report(spec, progress=progress)
    rep.outcome = ev.outcome
    rep.messages = ev.messages + rep.messages
    rep.exit_code = max(ev.exit_code, rep.exit_code) if ev.exit_code != EXIT_NO_BACKEND else EXIT_NO_BACKEND
    return rep
