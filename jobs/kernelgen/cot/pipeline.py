"""Composition of the stages for one CoTBuild spec: `build_shard` (the generate pods) and `merge`.

Output layout under the run's prefix `<spec.output.uri>/<metadata.name>/` (`Resource.output_uri()`, what the
status reports and a TrainRun's `dataset.fromCoTBuild` reads), through kernelgen.storage, local or S3:
  shards/shard-NNNN/teacher-cache.jsonl   every teacher answer, keyed by prompt hash (resume = cache hits)
  shards/shard-NNNN/records.jsonl         canonical records of the shard, after its filters
  shards/shard-NNNN/stats.json            per-stage counts and drops; decontam.jsonl: what was dropped and why
  dataset/canonical.jsonl                 merged, deduplicated, decontaminated records
  dataset/<export>.{jsonl,parquet}        messages, prompt-completion, dpo
  decontam_report.jsonl, stats.json, manifest.json
"""
from __future__ import annotations

import json
import logging
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from kernelgen.generate.engine import SamplingParams
from kernelgen.storage import fetch, open_output

from .budget import budget_for
from .context import Options, StageContext
from .decontam import Decontaminator, builtin_suite
from .dedup import near_duplicates
from .docs import ChunkIndex, load_chunks
from .export import jsonl_bytes, write_exports
from .records import CoTRecord, StageStats
from .teacher import Teacher, TeacherCache

log = logging.getLogger(__name__)
Progress = Callable[[str, int, int], None]   # (stage, answers generated, prompts sent to the teacher)


@dataclass
class ResolvedSource:
    uri: str
    local_path: Path
    commit: str = ""
    language: str = "auto"
    include_roots: list[str] = field(default_factory=list)
    compile_check: str = "off"
    format: str = "auto"
    suite_local: Path | None = None


def _commit(path: Path) -> str:
    d = path if path.is_dir() else path.parent
    try:
        r = subprocess.run(["git", "-C", str(d), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=False)
        return r.stdout.strip() if r.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def resolve_sources(spec) -> dict[str, list[ResolvedSource]]:
    s = spec.sources

    def res(src, **kw) -> ResolvedSource:
        local = fetch(src.uri)
        return ResolvedSource(uri=src.uri, local_path=local, commit=_commit(local), **kw)

    return {
        "docs": [res(d, language=d.language) for d in s.docs],
        "kernel": [res(k, include_roots=list(k.include_roots), compile_check=k.compile_check) for k in s.kernels],
        "project": [res(p, include_roots=list(p.include_roots)) for p in s.projects],
        "general": [res(g, format=g.format) for g in s.general],
        "debug": [res(b, suite_local=fetch(b.suite_uri) if getattr(b, "suite_uri", None) else None)
                  for b in s.bench_records],
    }


def make_engine_factory(t):
    """A zero-argument callable that builds the teacher's engine (called only when an answer is not cached)."""
    from kernelgen.generate import make_engine

    return lambda: make_engine(t)


def model_id(t) -> str:
    """The teacher's identity in the cache key (same label the engines record)."""
    label = t.model.uri + (f"#{t.model.gguf_file}" if t.model.gguf_file else "")
    return label + (f"@{t.model.revision}" if t.model.revision else "")


def make_decontaminator(spec) -> Decontaminator | None:
    d = spec.decontamination
    suite = builtin_suite() if d.suite_uri in ("", "builtin") else fetch(d.suite_uri)
    return Decontaminator(suite, n=d.ngram, containment=d.containment, similarity=d.similarity,
                          blocklist=list(d.blocklist))


def spec_fingerprint(spec, shards: int, options: Options) -> str:
    """What a finished shard was built from: a shard built from another spec or options is rebuilt."""
    import dataclasses
    import hashlib

    body = spec.model_dump(mode="json", include={"teacher", "sources", "stages", "filters", "decontamination"})
    payload = json.dumps({"spec": body, "shards": shards, "options": dataclasses.asdict(options)}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def run_store(resource):
    """The store at this build's own prefix, `<spec.output.uri>/<metadata.name>` (several builds can share a root)."""
    return open_output(resource.spec.output).child(resource.metadata.name)


def shard_prefix(shard: int) -> str:
    return f"shards/shard-{shard:04d}"


def build_shard(resource, shard: int = 0, shards: int = 1, options: Options | None = None,
                engine_factory=None, progress: Progress | None = None) -> dict[str, StageStats]:
    """Run every stage on this shard's slice of the items and write its records and stats.

    `progress(stage, answered, asked)` hears of every prompt sent to the teacher and every answer it generates
    (cached answers cost nothing and are not counted)."""
    spec = resource.spec
    options = options or Options()
    store = run_store(resource)
    prefix = shard_prefix(shard)
    fingerprint = spec_fingerprint(spec, shards, options)
    if store.exists(f"{prefix}/stats.json") and store.exists(f"{prefix}/records.jsonl"):
        done = store.read_json(f"{prefix}/stats.json")
        if done.get("fingerprint") == fingerprint:
            log.info("%s already built; skipping", prefix)
            return {k: StageStats.from_json(v) for k, v in done["stages"].items()}
        log.info("%s was built from another spec; rebuilding (cached teacher answers are reused)", prefix)
    srcs = resolve_sources(spec)
    t = spec.teacher
    params = SamplingParams(n=1, temperature=t.sampling.temperature, top_p=t.sampling.top_p,
                            max_tokens=t.sampling.max_tokens, seed=t.sampling.seed)   # one answer per prompt
    cache = TeacherCache(store, f"{prefix}/teacher-cache.jsonl")
    current = {"stage": ""}
    teacher = Teacher(engine_factory or make_engine_factory(t), model_id(t), params, cache, retries=t.retries,
                      token_budget=t.token_budget,
                      on_progress=(lambda done, asked: progress(current["stage"], done, asked)) if progress else None)
    budget = budget_for(t)
    ctx = StageContext(teacher=teacher, spec=spec, options=options, decontam=make_decontaminator(spec),
                       work=Path("."), shard=shard, shards=shards, budget=budget)
    records: list[CoTRecord] = []
    try:
        from .debug import run_debug
        from .docs import run_docs
        from .general import run_general
        from .kernel import run_kernel
        from .project import run_project

        for stage in spec.effective_stages():
            log.info("stage %s (shard %d/%d)", stage, shard, shards)
            current["stage"] = stage
            if progress:
                progress(stage, 0, 0)
            if stage == "docs":
                records += run_docs(ctx, srcs["docs"])
            elif stage == "kernel":
                records += run_kernel(ctx, srcs["kernel"])
            elif stage == "project":
                records += run_project(ctx, srcs["project"])
            elif stage == "general":
                records += run_general(ctx, srcs["general"])
            elif stage == "debug":
                chunks = [c for d in srcs["docs"] for c in load_chunks(d.local_path, cap=options.chunk_chars,
                                                                         language=d.language)]
                records += run_debug(ctx, srcs["debug"], ChunkIndex(chunks) if chunks else None)
    finally:
        teacher.close()
    store.write_bytes(f"{prefix}/records.jsonl", jsonl_bytes([r.to_json() for r in records]))
    store.write_bytes(f"{prefix}/drops.jsonl", jsonl_bytes([d for s in ctx.stats.values() for d in s.items]))
    store.write_bytes(f"{prefix}/decontam.jsonl", jsonl_bytes(ctx.decontam.dropped if ctx.decontam else []))
    store.write_json(f"{prefix}/stats.json", {"shard": shard, "shards": shards, "fingerprint": fingerprint,
                                             "teacher": {"calls": teacher.calls, "cached": teacher.cached,
                                                         "tokens": teacher.spent, "prompt_limit": budget.limit,
                                                         "prompt_counter": budget.counter},
                                             "stages": {k: v.to_json() for k, v in ctx.stats.items()}})
    return ctx.stats


def merge(resource, shards: int | None = None, allowed_failed: int | None = None) -> dict[str, Any]:
    """Merge shard outputs: exact and near-duplicate removal, prompt-side decontamination, exports, manifest."""
    from kernelgen.storage import write_manifest

    spec = resource.spec
    store = run_store(resource)
    shards = shards or spec.shards
    allowed = spec.allowed_failed_shards if allowed_failed is None else allowed_failed
    stats: dict[str, StageStats] = {}
    records: list[CoTRecord] = []
    drops: list[dict] = []
    missing = []
    teacher = {"calls": 0, "cached": 0, "tokens": 0}
    for i in range(shards):
        p = shard_prefix(i)
        if not store.exists(f"{p}/stats.json"):
            missing.append(i)
            continue
        st = store.read_json(f"{p}/stats.json")
        for k, v in st["stages"].items():
            stats.setdefault(k, StageStats(stage=k)).add(StageStats.from_json(v))
        for k in ("calls", "cached", "tokens"):
            teacher[k] += st.get("teacher", {}).get(k, 0)
        for k in ("prompt_limit", "prompt_counter"):
            teacher[k] = st.get("teacher", {}).get(k)
        records += [CoTRecord.from_json(d) for d in store.iter_jsonl(f"{p}/records.jsonl")]
        drops += list(store.iter_jsonl(f"{p}/decontam.jsonl"))
    if len(missing) > allowed:
        raise RuntimeError(f"shards without output: {missing} (allowedFailedShards={allowed})")
    final = StageStats(stage="final", inputs=len(records))
    seen, uniq = set(), []
    for r in records:
        if r.id in seen:
            final.drop("exact_duplicate")
        else:
            seen.add(r.id)
            uniq.append(r)
    kept, dups = near_duplicates(uniq, spec.filters.dedup.threshold)
    final.drop("near_duplicate", len(dups))
    dec = make_decontaminator(spec)
    clean = []
    for r in kept:
        hit = dec.check_text(r.prompt) if dec else None
        if hit:
            final.drop("decontam:" + hit.reason)
            dec.report("final", r.id, hit)
        else:
            clean.append(r)
    drops += dec.dropped if dec else []
    final.outputs = len(clean)
    stats["final"] = final
    clean.sort(key=lambda r: (r.kind, r.id))
    store.write_bytes("dataset/canonical.jsonl", jsonl_bytes([r.to_json() for r in clean]))
    exports = write_exports(store, clean, list(spec.export.kinds), list(spec.export.formats))
    store.write_bytes("decontam_report.jsonl", jsonl_bytes(drops))
    by_kind: dict[str, int] = {}
    for r in clean:
        by_kind[r.kind] = by_kind.get(r.kind, 0) + 1
    decontam_by: dict[str, int] = {}
    for d in drops:
        decontam_by[d["reason"]] = decontam_by.get(d["reason"], 0) + 1
    dropped: dict[str, int] = {}   # per filter (drop reason), summed over the stages
    for st in stats.values():
        for reason, n in st.dropped.items():
            dropped[reason] = dropped.get(reason, 0) + n
    summary = {"kind": "CoTBuild", "name": resource.metadata.name, "records": len(clean), "by_kind": by_kind,
               "dropped": dict(sorted(dropped.items())),
               "outputs": {"uri": resource.output_uri(), "manifestURI": f"{resource.output_uri()}/manifest.json"},
               "exports": exports, "teacher": teacher, "shards": shards, "missing_shards": missing,
               "decontamination": {"dropped": len(drops), "by_reason": decontam_by},
               "stages": {k: v.to_json() for k, v in stats.items()}}
    store.write_json("stats.json", summary)
    write_manifest(store, extra={"stats": summary})
    return summary


def run(resource, options: Options | None = None, engine_factory=None,
        progress: Progress | None = None) -> dict[str, Any]:
    """The local, single-process build: one shard, then merge."""
    build_shard(resource, 0, 1, options, engine_factory, progress)
    return merge(resource, shards=1, allowed_failed=0)
