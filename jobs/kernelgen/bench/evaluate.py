"""Evaluation pipeline: for each candidate, prepare -> compile (backend) -> run each case (sandboxed worker).

Candidates run in a thread pool (the work itself happens in subprocesses); each (task, case, sample) record is
appended to records.jsonl as soon as it is known, and keys already there are skipped, so a killed run resumes
where it stopped. Infrastructure failures (the backend or harness broke, not the kernel) are NOT recorded:
a resumed run retries them, and the run reports them and exits non-zero.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import statistics
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

from .candidates import candidate_sha256, invalid_files
from .errors import clip_log
from .model import Backend, Candidate, CaseResult, CompileResult, EvalRecord, Task, TestCase, Verdict
from .records import RecordLog
from .sandbox import derive_seed, run_case
from .tasks import select_cases, task_sha256

COMPILE_LOG_CHARS = 4000
#: Bump when the evaluation semantics change (comparison rules, input generation): recorded in every record's
#: versions, and records of another harness version are evaluated again on resume.
HARNESS_VERSION = "2"


@dataclass
class EvalSettings:
    compile_timeout_s: float = 600
    run_timeout_s: float = 120
    memory_mib: int = 4096
    seed: int | None = None         # None: a fresh seed (the run stage draws and records one)
    draws: int | None = None        # input draws per case; None: 2 in static mode, 1 in dynamic mode
    workers: int | None = None
    timing: bool = False
    warmup: int = 1
    trials: int = 10
    tolerances: dict[str, Any] = field(default_factory=dict)
    shape_mode: str = "static"
    max_cases: int | None = None
    exclusive_device: bool = True
    keep_workdirs: bool = False

    @classmethod
    def from_spec(cls, spec: Any) -> "EvalSettings":
        spec = getattr(spec, "spec", spec)   # a BenchRun resource or its spec
        ev = spec.evaluation
        return cls(compile_timeout_s=ev.compile_timeout_seconds, run_timeout_s=ev.run_timeout_seconds,
                   memory_mib=ev.memory_limit_mib, seed=ev.seed, workers=ev.workers, timing=ev.timing,
                   warmup=ev.warmup, trials=ev.trials,
                   tolerances={k: {"atol": v.atol, "rtol": v.rtol} for k, v in ev.tolerances.items()},
                   draws=getattr(ev, "draws", None), shape_mode=spec.suite.shape_mode, max_cases=spec.suite.max_cases,
                   exclusive_device=ev.exclusive_device)


@dataclass
class InfraFailure:
    task_id: str
    sample: int
    case_id: int | None
    message: str


@dataclass
class EvalOutcome:
    evaluated: int = 0          # records written by this call
    skipped: int = 0            # records already present (resume)
    infra: list[InfraFailure] = field(default_factory=list)


def fresh_seed() -> int:
    """A run seed nobody can predict (a kernel that memorised one run's inputs fails the next run)."""
    import secrets
    return secrets.randbits(31)


def shard_of(task_id: str, sample: int, shards: int) -> int:
    digest = hashlib.sha256(f"{task_id}#{sample}".encode()).digest()
    return int.from_bytes(digest[:8], "little") % max(1, shards)


def plan(tasks: Sequence[Task], candidates: Sequence[Candidate], settings: EvalSettings, *, shard: int = 0,
         shards: int = 1) -> list[tuple[Task, Candidate, list[TestCase]]]:
    by_id = {t.task_id: t for t in tasks}
    out = []
    for c in sorted(candidates, key=lambda c: (c.task_id, c.sample)):
        task = by_id.get(c.task_id)
        if task is None or shard_of(c.task_id, c.sample, shards) != shard:
            continue
        out.append((task, c, select_cases(task, settings.shape_mode, settings.max_cases)))
    return out


def _case_text(case: TestCase) -> dict[str, str]:
    """The case's parameters as the CSV writes them (clipped: a case may list long shapes)."""
    cells = case.raw or {k: repr(v) for k, v in case.values.items()}
    return {str(k): str(v)[:200] for k, v in cells.items()}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _speedup(res: CaseResult) -> float | None:
    if res.verdict != Verdict.OK or not res.candidate_ms or not res.baseline_ms:
        return None
    cand = statistics.median(res.candidate_ms)
    return statistics.median(res.baseline_ms) / cand if cand > 0 else None


class Evaluator:
    def __init__(self, backend: Backend, settings: EvalSettings, log: RecordLog, *, run: str, workdir: Path,
                 on_record: Callable[[EvalRecord], None] | None = None,
                 on_skip: Callable[[int], None] | None = None):
        self.backend, self.settings, self.log, self.run = backend, settings, log, run
        self.workdir = Path(workdir)
        if settings.seed is None:
            settings.seed = fresh_seed()
        self.on_record, self.on_skip = on_record, on_skip
        self.versions = {**backend.versions(), "harness": HARNESS_VERSION}
        self._lock = threading.Lock()
        self.outcome = EvalOutcome()
        self._task_hashes: dict[str, str] = {}
        # compiles run in parallel; case execution is serialized where it shares a device (one NPU per
        # evaluator) or where it is timed (timings must not contend with each other)
        self._device = threading.Lock()

    def _task_sha(self, task: Task) -> str:
        if task.task_id not in self._task_hashes:
            self._task_hashes[task.task_id] = task_sha256(task)
        return self._task_hashes[task.task_id]

    def _record(self, task: Task, cand: Candidate, case: TestCase, *, verdict: Verdict, message: str,
                cres: CompileResult | None, res: CaseResult | None, seed: int, seconds: float) -> None:
        rec = EvalRecord(
            run=self.run, task_id=task.task_id, level=task.level, category=task.category, op_name=task.op_name,
            case_id=case.case_id, sample=cand.sample, verdict=verdict.value, message=message,
            candidate_sha256=candidate_sha256(cand.files), compile_ok=bool(cres and cres.ok),
            error_class=(cres.error_class.value if cres and cres.error_class else None),
            compile_log=clip_log(cres.log, COMPILE_LOG_CHARS) if cres and cres.log else "",
            compile_seconds=float(cres.seconds) if cres else 0.0, compile_cached=bool(cres and cres.cached),
            max_abs_err=res.max_abs_err if res else None, max_rel_err=res.max_rel_err if res else None,
            candidate_ms=list(res.candidate_ms) if res else [], baseline_ms=list(res.baseline_ms) if res else [],
            speedup=_speedup(res) if res else None, seed=seed, backend=self.backend.name,
            versions=self.versions, seconds=round(seconds, 3), finished_at=_now(),
            dtype=str((case.raw or {}).get("dtype") or case.values.get("dtype") or ""),
            task_sha256=self._task_sha(task), diagnostics=list(res.diagnostics[-12:]) if res and
            verdict != Verdict.OK else [],
            case=_case_text(case) if verdict != Verdict.OK else {}, worst=list(res.worst) if res else [])
        self.log.append(rec)
        with self._lock:
            self.outcome.evaluated += 1
        if self.on_record:
            self.on_record(rec)

    def _infra(self, task: Task, cand: Candidate, case_id: int | None, message: str, n_cases: int) -> None:
        with self._lock:
            self.outcome.infra.append(InfraFailure(task.task_id, cand.sample, case_id, message))
        if self.on_skip:
            self.on_skip(n_cases)

    def evaluate_candidate(self, task: Task, cand: Candidate, cases: list[TestCase], done: dict) -> None:
        sha = (candidate_sha256(cand.files), self._task_sha(task))
        todo = [c for c in cases if done.get((task.task_id, c.case_id, cand.sample)) != sha]
        if not todo:
            return
        seeds = {c.case_id: derive_seed(self.settings.seed, task.task_id, c.case_id) for c in todo}
        kernel_file = f"op_kernel/{task.kernel_name}.cpp"
        bad_files = "" if cand.parse_error else invalid_files(cand.files)
        if cand.parse_error or bad_files or kernel_file not in cand.files:
            why = cand.parse_error or bad_files or f"candidate has no {kernel_file}"
            for c in todo:
                self._record(task, cand, c, verdict=Verdict.PARSE_ERROR, message=why, cres=None, res=None,
                             seed=seeds[c.case_id], seconds=0.0)
            return
        cdir = self.workdir / task.task_id / f"sample{cand.sample}"
        t0 = time.perf_counter()
        try:
            ws = self.backend.prepare(task, cand, cdir)
            cres = self.backend.compile(ws, self.settings.compile_timeout_s)
        except Exception as e:
            self._infra(task, cand, None, f"backend prepare/compile raised {type(e).__name__}: {e}\n"
                                          f"{traceback.format_exc(limit=3)}", len(todo))
            return
        if not cres.ok:
            verdict = cres.verdict or Verdict.COMPILE_ERROR
            if verdict == Verdict.INFRA_ERROR:
                self._infra(task, cand, None, f"compile infrastructure failure: {cres.log[-500:]}", len(todo))
                return
            first = next((ln for ln in cres.log.splitlines() if "error" in ln.lower()), cres.log[:200])
            msg = (f"compile timed out after {self.settings.compile_timeout_s:g}s" if verdict == Verdict.TIMEOUT
                   else f"compile failed: {first.strip()[:300]}")
            for c in todo:
                self._record(task, cand, c, verdict=verdict, message=msg, cres=cres, res=None,
                             seed=seeds[c.case_id], seconds=time.perf_counter() - t0)
            return
        try:
            rt = self.backend.runtime_env(ws)
        except Exception as e:
            self._infra(task, cand, None, f"backend runtime_env raised {type(e).__name__}: {e}", len(todo))
            return
        s = self.settings
        for c in todo:
            scratch = cdir / f"case{c.case_id}"
            exclusive = s.timing or (s.exclusive_device and rt.device != "cpu")
            with self._device if exclusive else contextlib.nullcontext():
                res = run_case(task, c, rt, seed=seeds[c.case_id], timeout_s=s.run_timeout_s,
                               memory_mib=s.memory_mib, scratch=scratch, tolerances=s.tolerances or None,
                               timing={"warmup": s.warmup, "trials": s.trials} if s.timing else None,
                               draws=s.draws or (2 if s.shape_mode == "static" else 1))
                res = self.backend.after_case(ws, c, res)
            if not s.keep_workdirs:
                shutil.rmtree(scratch, ignore_errors=True)
            if res.verdict == Verdict.INFRA_ERROR:   # with the why (the sandbox's or the judge's log tail)
                self._infra(task, cand, c.case_id, "\n".join([res.message, *res.diagnostics[-12:]]), 1)
                continue
            self._record(task, cand, c, verdict=res.verdict, message=res.message, cres=cres, res=res,
                         seed=seeds[c.case_id], seconds=res.seconds)

    def run_all(self, work: list[tuple[Task, Candidate, list[TestCase]]]) -> EvalOutcome:
        # a record counts as done only for the same candidate and task content (an edited candidate or task is
        # evaluated again; its new record supersedes the old one, last line wins)
        done = {k: (r.candidate_sha256, r.task_sha256) for k, r in self.log.load().items()
                if r.versions.get("harness") == HARNESS_VERSION}
        skipped = sum(1 for t, cand, cases in work for c in cases
                      if done.get((t.task_id, c.case_id, cand.sample)) == (candidate_sha256(cand.files),
                                                                            self._task_sha(t)))
        self.outcome.skipped = skipped
        if skipped and self.on_skip:
            self.on_skip(skipped)
        workers = self.settings.workers or max(1, min(os.cpu_count() or 1, 8))
        if workers > 1 and len(work) > 1:
            # shared build artefacts (precompiled headers) once, not once per concurrent first compile
            try:
                self.backend.warm_up(time.monotonic() + self.settings.compile_timeout_s)
            except Exception:  # noqa: BLE001 - each compile then builds what it needs and reports its own error
                pass
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kg-eval") as pool:
            futures = [pool.submit(self.evaluate_candidate, t, cand, cases, done) for t, cand, cases in work]
            for f in futures:
                f.result()
        return self.outcome
