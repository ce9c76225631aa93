"""BenchRun's generate stage: prompts for the selected tasks -> n sampled candidates each -> candidates.jsonl.

Each sample is appended (fsynced) as one CandidateRecord line the moment its completion arrives, so a killed
run loses at most the samples in flight; a rerun reads the file and asks only for the (task, sample) pairs
that are missing. A sample whose request failed for good (server gone past the engine's retries) is not
written: the stage reports it and exits non-zero, and the rerun generates it.

The same code runs locally (`kernelgen bench run`, via kernelgen.bench.run.stage_generate) and in the
operator's pods (`kernelgen bench generate --spec F --shard i --shards N`). With N > 1 shards each writes its
own `candidates/shard-i-of-N.jsonl`, tasks being split by a stable hash of their id. The engines themselves
(kernelgen.generate) know nothing of BenchRuns.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kernelgen.generate import make_engine, sampling_from_spec
from kernelgen.generate.engine import Completion, Engine, Prompt, SamplingParams
from kernelgen.specs.refs import require_resolved
from kernelgen.storage import LocalStore

from .candidates import from_response, to_record
from .hooks import StageHooks
from .model import Task
from .prompts import build_prompt, prompt_sha256
from .rundir import CANDIDATES, RunDir, RunError, select_tasks, shard_key, task_shard

log = logging.getLogger(__name__)


@dataclass
class GenerateResult:
    out_path: Path
    tasks: int = 0
    wanted: int = 0            # samples this shard owns
    existing: int = 0          # already in the file (resume)
    written: int = 0
    parse_errors: int = 0      # written, but no code could be extracted (a result, not a failure)
    failed: list[str] = field(default_factory=list)   # "<task>#<sample>: why" for requests that failed for good
    completion_tokens: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failed


class _Hooks:
    """Adapts `progress` (StageHooks, True for a log line per sample, or False)."""

    def __init__(self, progress: StageHooks | bool):
        self.p = progress if not isinstance(progress, bool) else None
        self.verbose = progress is True

    def start(self, total: int) -> None:
        if self.p is not None:
            self.p.start("generate", total)

    def advance(self, text: str) -> None:
        if self.p is not None:
            self.p.advance("generate", 1)
        elif self.verbose:
            log.info("%s", text)

    def message(self, text: str) -> None:
        if self.p is not None:
            self.p.message(text)
        else:
            log.warning("%s", text)


def build_prompts(tasks: Iterable[Task], generator: Any, suite: Any,
                  missing: Callable[[str], list[int]]) -> tuple[list[Prompt], dict[str, str]]:
    """One Prompt per task that still needs samples, plus each task's prompt hash."""
    prompts, hashes = [], {}
    for task in tasks:
        text = build_prompt(task, template=generator.template, shape_mode=suite.shape_mode,
                            max_cases=suite.max_cases)
        hashes[task.task_id] = prompt_sha256(text)
        samples = missing(task.task_id)
        if samples:
            prompts.append(Prompt(task.task_id, [{"role": "user", "content": text}], samples))
    return prompts, hashes


def run_generate(spec: Any, *, shard: int = 0, shards: int = 1, progress: StageHooks | bool = True,
                 tasks: list[Task] | None = None, out_path: str | Path | None = None,
                 engine: Engine | None = None) -> GenerateResult:
    """Generate this shard's missing samples for a BenchRun spec.

    `tasks` / `out_path` are given by the in-process runner (kernelgen.bench.run.stage_generate), which owns the
    run directory; without them the stage selects the tasks and syncs its shard file with the run's output
    store itself (the pod entrypoint). `engine` lets a caller reuse a loaded engine.
    """
    if not 0 <= shard < shards:
        raise ValueError(f"shard {shard} is not in [0, {shards})")
    gen = spec.spec.generator
    if gen is None:
        raise ValueError("spec.generator is required to generate candidates")
    require_resolved(spec)   # generator.model.fromTrainRun: resolved by the operator or --runs-root
    rd = None
    key = shard_key(CANDIDATES, shard, shards)
    if tasks is None:
        tasks = select_tasks(spec).tasks
    if out_path is None:
        rd = RunDir(spec)
        rd.pull(key)
        out_path = rd.path / key
    out_path = Path(out_path)
    hooks = _Hooks(progress)
    mine = [t for t in tasks if shards == 1 or task_shard(t.task_id, shards) == shard]
    n = gen.sampling.n
    # the shard file is the storage's durable JSONL: what is in it (a torn last line aside) is done
    out_dir = LocalStore(out_path.parent)
    done = {(r["task_id"], int(r["sample"])) for r in out_dir.iter_jsonl(out_path.name)}
    result = GenerateResult(out_path=out_path, tasks=len(mine), wanted=len(mine) * n,
                            existing=sum((t.task_id, s) in done for t in mine for s in range(n)))

    def missing(task_id: str) -> list[int]:
        return [s for s in range(n) if (task_id, s) not in done]

    prompts, hashes = build_prompts(mine, gen, spec.spec.suite, missing)
    todo = sum(len(p.samples) for p in prompts)
    hooks.start(result.wanted)
    if result.existing and hooks.p is not None:
        hooks.p.advance("generate", result.existing)
    if not todo:
        return result
    hooks.message(f"generate: {todo} sample(s) for {len(prompts)} task(s) "
                  f"({result.existing} already in {out_path.name})")
    params = sampling_from_spec(gen.sampling)
    own_engine = engine is None
    t0 = time.perf_counter()
    if engine is None:
        engine = make_engine(gen)
    by_id = {t.task_id: t for t in mine}
    last_push = time.monotonic()
    try:
        with out_dir.appender(out_path.name) as out:
            for c in engine.generate(prompts, params):
                if not c.ok:
                    result.failed.append(f"{c.key}#{c.sample}: {c.error}")
                    hooks.advance(f"{c.key}#{c.sample}: FAILED {c.error[:200]}")
                    continue
                rec = _record(spec, by_id[c.key], c, engine, params, hashes[c.key], gen)
                out.append(rec)          # flush_every=1: fsynced before the next sample is taken
                result.written += 1
                result.completion_tokens += c.completion_tokens
                result.parse_errors += bool(rec["parse_error"])
                hooks.advance(f"{c.key}#{c.sample}: {c.completion_tokens} tokens, {c.finish_reason}"
                              + (f", parse error: {rec['parse_error'][:80]}" if rec["parse_error"] else ""))
                if rd is not None and rd.remote and time.monotonic() - last_push > 30:
                    rd.push(key)
                    last_push = time.monotonic()
    finally:
        if own_engine:
            engine.close()
        if rd is not None:
            rd.push(key)
        result.seconds = time.perf_counter() - t0
    if result.failed:
        raise RunError(f"generate: {len(result.failed)} of {todo} sample(s) failed and were not written (a rerun "
                       f"generates only those); first: {result.failed[0][:300]}")
    return result


def _record(spec: Any, task: Task, c: Completion, engine: Engine, params: SamplingParams, prompt_hash: str,
            gen: Any) -> dict[str, Any]:
    meta = {
        "engine": engine.name, "model": engine.model_id, "revision": gen.model.revision,
        "template": gen.template, "shape_mode": spec.spec.suite.shape_mode, "prompt_sha256": prompt_hash,
        "sampling": params.to_meta(), "seed": c.seed,
        "prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens,
        "finish_reason": c.finish_reason, "seconds": round(c.seconds, 4),
        "ttft_seconds": None if c.ttft_seconds is None else round(c.ttft_seconds, 4),
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    cand = from_response(task, c.sample, c.content, template=gen.template, origin=f"generate:{engine.model_id}",
                         reasoning=c.reasoning, meta=meta)
    return asdict(to_record(spec.metadata.name, cand, response=c.content, reasoning=c.reasoning))
