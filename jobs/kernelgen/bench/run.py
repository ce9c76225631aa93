"""Run a BenchRun spec end to end, or one stage of it (what the operator's pods call).

Stages: candidates (generate, or load reference/jsonl/directory) -> evaluate (sharded) -> report.
Artifacts live under ``<spec.output.uri>/<metadata.name>/`` (layout in bench/model.py). Local outputs are
written in place; for s3:// outputs the stage works in a local staging directory, pulls what the store
already has (resume across pods) and pushes its files back as it goes.

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
from typing import Any, Callable

from .backends import BackendUnavailable, get_backend
from .candidates import CandidateSourceError, load_candidates, record_to_json, to_record
from .evaluate import EvalOutcome, EvalSettings, Evaluator, plan
from .metrics import MetricsConfig, compute, status_results
from .model import Candidate, EvalRecord, Task
from .records import RecordLog, read_records
from .report import write_reports
from .tasks import Suite, load_suite

EXIT_OK, EXIT_INFRA, EXIT_NO_BACKEND = 0, 1, 3
CANDIDATES = "candidates.jsonl"
RECORDS = "records.jsonl"
STAGE_STATE = "stages"
SPEC_COPY = "spec.json"
SEED_FILE = "seed.json"


class RunError(Exception):
    """A failure of the run itself (bad suite, unreadable candidates): exit 1 with this message."""


@dataclass
class RunResult:
    out_dir: Path
    exit_code: int = EXIT_OK
    summary: dict[str, Any] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    report_paths: dict[str, Path] = field(default_factory=dict)
    outcome: EvalOutcome | None = None


@dataclass
class Progress:
    """Callbacks a UI (rich progress bars) hooks into; all optional."""

    start: Callable[[str, int], None] = lambda stage, total: None
    advance: Callable[[str, int], None] = lambda stage, n: None
    message: Callable[[str], None] = lambda text: None


class RunDir:
    """The run's artifact directory: local, or a staging copy of an s3:// prefix."""

    def __init__(self, spec: Any):
        from kernelgen.storage import LocalStore, open_output

        name = spec.metadata.name
        base = open_output(spec.spec.output)
        self.store = base.child(name)
        self.remote = not isinstance(self.store, LocalStore)
        if self.remote:
            import hashlib

            from kernelgen.storage import s3
            tag = hashlib.sha256(self.store.url("").encode()).hexdigest()[:10]
            self.path = Path(s3.DEFAULT_CACHE).parent / "runs" / f"{name}-{tag}"
        else:
            self.path = Path(self.store.root)
        self.path.mkdir(parents=True, exist_ok=True)

    def pull(self, *keys: str) -> None:
        if not self.remote:
            return
        existing = set(self.store.list(""))
        for key in keys:
            for k in (k for k in existing if k == key or k.startswith(key.rstrip("/") + "/")):
                self.store.download_file(k, self.path / k)

    def push(self, *keys: str) -> None:
        if not self.remote:
            return
        for key in keys:
            p = self.path / key
            for f in ([p] if p.is_file() else sorted(x for x in p.rglob("*") if x.is_file()) if p.is_dir() else []):
                self.store.upload_file(f.relative_to(self.path).as_posix(), f)

    def url(self) -> str:
        return self.store.url("")


def select_tasks(spec: Any) -> Suite:
    s = spec.spec.suite
    uri = s.uri
    if str(uri).startswith("s3://"):
        from kernelgen.storage import fetch
        uri = str(fetch(uri))
    suite = load_suite(uri, levels=s.levels, categories=s.categories, names=s.names, limit=s.limit)
    if not suite.tasks and suite.errors:
        raise RunError("no task could be loaded: " + "; ".join(map(str, suite.errors[:5])))
    return suite


def _shard_records_key(shard: int, shards: int) -> str:
    return RECORDS if shards == 1 else f"records/shard-{shard:05d}-of-{shards:05d}.jsonl"


def _load_generated(rd: RunDir, tasks: list[Task], template: str) -> list[Candidate]:
    """candidates.jsonl, or the generate stage's shard files candidates/shard-*.jsonl."""
    from .candidates import jsonl_candidates
    paths = [p for p in [rd.path / CANDIDATES, *sorted((rd.path / "candidates").glob("*.jsonl"))] if p.exists()]
    if not paths:
        raise RunError(f"{CANDIDATES} not found under {rd.url()}: run the generate stage first")
    merged: dict[tuple[str, int], Candidate] = {}
    for path in paths:
        cands, _ = jsonl_candidates(path, tasks, template=template)
        merged.update({(c.task_id, c.sample): c for c in cands})
    return [merged[k] for k in sorted(merged)]


def stage_generate(spec: Any, rd: RunDir | None, tasks: list[Task] | None, progress: Progress, *,
                   shard: int = 0, shards: int = 1) -> Any:
    """Run the generate stage (kernelgen.generate.stage). In process (rd and tasks given) it writes
    candidates.jsonl here; as a pod entrypoint (rd None) the stage syncs its own shard file with the store."""
    try:
        from kernelgen.generate import stage as gen_stage  # lazy: heavy deps (vllm/transformers)
    except ImportError as e:
        raise RunError("candidates.source is 'generate', but the generate stage (kernelgen.generate.stage) is not "
                       f"available in this build ({e}); use source reference, jsonl or directory") from e
    if rd is None:
        return gen_stage.run_generate(spec, shard=shard, shards=shards, progress=progress)
    rd.pull(CANDIDATES)
    try:
        return gen_stage.run_generate(spec, tasks=tasks, out_path=rd.path / CANDIDATES, progress=progress)
    finally:
        rd.push(CANDIDATES)


def candidates_for(spec: Any, rd: RunDir, tasks: list[Task], progress: Progress, *, write: bool) -> list[Candidate]:
    c = spec.spec.candidates
    template = spec.spec.generator.template if spec.spec.generator else "kernel-only"
    if c.source == "generate":
        rd.pull(CANDIDATES, "candidates")
        return _load_generated(rd, tasks, template)
    uri = c.uri
    if uri and str(uri).startswith("s3://"):
        from kernelgen.storage import fetch
        uri = str(fetch(uri))
    try:
        cands, warnings = load_candidates(c.source, tasks, uri=uri, template=template)
    except CandidateSourceError as e:
        raise RunError(str(e)) from e
    for w in warnings:
        progress.message(f"warning: {w}")
    if write:   # candidates.jsonl for the record (deterministic content; rewritten whole)
        path = rd.path / CANDIDATES
        tmp = path.with_suffix(".jsonl.tmp")
        tmp.write_text("".join(record_to_json(to_record(spec.metadata.name, x)) + "\n" for x in cands),
                       encoding="utf-8")
        tmp.replace(path)
        rd.push(CANDIDATES)
    return cands


def stage_evaluate(spec: Any, *, shard: int = 0, shards: int | None = None, progress: Progress | None = None,
                   backend: Any = None) -> RunResult:
    progress = progress or Progress()
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
    key = _shard_records_key(shard, shards)
    rd.pull(key)
    if backend is None:
        try:
            ev = spec.spec.evaluation
            backend = get_backend(ev.backend, **({"sync_check": ev.sync_check} if ev.backend == "sim" else {}))
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
                               f"retries them); first: {outcome.infra[0].message.splitlines()[0][:300]}")
    return result


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
    from .evaluate import fresh_seed
    seed = fresh_seed()
    path.write_text(json.dumps({"seed": seed}))
    rd.push(SEED_FILE)
    return seed


def _write_state(rd: RunDir, name: str, state: dict) -> None:
    d = rd.path / STAGE_STATE
    d.mkdir(exist_ok=True)
    (d / f"{name}.json").write_text(json.dumps(state, indent=2, default=str))
    rd.push(f"{STAGE_STATE}/{name}.json")


def stage_report(spec: Any, *, progress: Progress | None = None) -> RunResult:
    progress = progress or Progress()
    rd = RunDir(spec)
    rd.pull(RECORDS, "records", STAGE_STATE)
    result = RunResult(out_dir=rd.path)
    paths = [rd.path / RECORDS, *sorted((rd.path / "records").glob("*.jsonl"))]
    records = read_records([p for p in paths if p.exists()])
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
        from kernelgen.storage import write_manifest
        if not rd.remote:
            write_manifest(rd.store, extra={"kind": "BenchRun", "name": spec.metadata.name})
    except Exception as e:  # the manifest is provenance; its failure is reported, the results stand
        result.messages.append(f"manifest not written: {e}")
    rd.push("summary.json", "report.md", "report.html", "tasks")
    if rd.remote:
        from kernelgen.storage import write_manifest
        write_manifest(rd.store, extra={"kind": "BenchRun", "name": spec.metadata.name})
    if notes and not records:
        result.exit_code = EXIT_NO_BACKEND if any("no kernel backend" in n for n in notes) else EXIT_OK
    if infra:
        result.exit_code = EXIT_INFRA
    return result


def run(spec: Any, *, progress: Progress | None = None, backend: Any = None) -> RunResult:
    """All stages in this process (the local `kernelgen bench run`)."""
    progress = progress or Progress()
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
