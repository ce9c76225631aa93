"""A BenchRun's artifact directory and what every stage reads from it: the task selection, the candidates, the
artifact names and the shard key. The stages (kernelgen.bench.run, kernelgen.bench.generating, the ascend
backend's compile phase and dry run) all come here, so these are defined once.

Layout under ``<spec.output.uri>/<metadata.name>/`` (see bench/model.py): candidates.jsonl or
candidates/shard-i-of-N.jsonl (generate), records.jsonl or records/shard-i-of-N.jsonl (evaluate), stages/*.json,
spec.json, seed.json, summary.json and the reports. Local outputs are used in place; for s3:// outputs a stage
works in a local staging directory, pulls what the store already has (resume across pods) and pushes its files back.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from kernelgen.storage import LocalStore, fetch, open_output, s3

from .candidates import CandidateSourceError, jsonl_candidates, load_candidates, record_to_json, to_record
from .hooks import StageHooks
from .model import Candidate, Task
from .tasks import Suite, load_suite

CANDIDATES = "candidates"       # candidates.jsonl, or candidates/shard-i-of-N.jsonl
RECORDS = "records"             # records.jsonl, or records/shard-i-of-N.jsonl
STAGE_STATE = "stages"
SPEC_COPY = "spec.json"
SEED_FILE = "seed.json"


class RunError(Exception):
    """A failure of the run itself (bad suite, unreadable candidates): exit 1 with this message."""


def shard_key(stem: str, shard: int = 0, shards: int = 1) -> str:
    """The key one shard of a stage appends to: `<stem>.jsonl` unsharded, else `<stem>/shard-i-of-N.jsonl`."""
    return f"{stem}.jsonl" if shards == 1 else f"{stem}/shard-{shard:05d}-of-{shards:05d}.jsonl"


def task_shard(task_id: str, shards: int) -> int:
    """The shard that owns a task: a stable hash of its id (the same in every process and pod)."""
    return int.from_bytes(hashlib.sha256(task_id.encode()).digest()[:8], "little") % shards


class RunDir:
    """The run's artifact directory: local, or a staging copy of an s3:// prefix."""

    def __init__(self, spec: Any):
        name = spec.metadata.name
        self.store = open_output(spec.spec.output).child(name)
        self.remote = not isinstance(self.store, LocalStore)
        if self.remote:
            tag = hashlib.sha256(self.store.url("").encode()).hexdigest()[:10]
            self.path = Path(s3.DEFAULT_CACHE).parent / "runs" / f"{name}-{tag}"   # looked up here: tests move it
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

    def shard_paths(self, stem: str) -> list[Path]:
        """The local files of every shard of a stage's output (`<stem>.jsonl` and `<stem>/*.jsonl`), pulled first."""
        self.pull(shard_key(stem), stem)
        return [p for p in [self.path / shard_key(stem), *sorted((self.path / stem).glob("*.jsonl"))] if p.exists()]

    def url(self) -> str:
        return self.store.url("")


def select_tasks(spec: Any) -> Suite:
    s = spec.spec.suite
    uri = s.uri
    if str(uri).startswith("s3://"):
        uri = str(fetch(uri))
    suite = load_suite(uri, levels=s.levels, categories=s.categories, names=s.names, limit=s.limit)
    if not suite.tasks and suite.errors:
        raise RunError("no task could be loaded: " + "; ".join(map(str, suite.errors[:5])))
    return suite


def load_generated(rd: RunDir, tasks: list[Task], template: str) -> list[Candidate]:
    """The generate stage's output, candidates.jsonl or its shard files, as one candidate set."""
    paths = rd.shard_paths(CANDIDATES)
    if not paths:
        raise RunError(f"{shard_key(CANDIDATES)} not found under {rd.url()}: run the generate stage first")
    merged: dict[tuple[str, int], Candidate] = {}
    for path in paths:
        cands, _ = jsonl_candidates(path, tasks, template=template)
        merged.update({(c.task_id, c.sample): c for c in cands})
    return [merged[k] for k in sorted(merged)]


def candidates_for(spec: Any, rd: RunDir, tasks: list[Task], hooks: StageHooks, *, write: bool) -> list[Candidate]:
    """The candidates the spec names: generated ones from the run directory, or loaded from their source (and,
    with `write`, kept as candidates.jsonl for the record)."""
    c = spec.spec.candidates
    template = spec.spec.generator.template if spec.spec.generator else "kernel-only"
    if c.source == "generate":
        return load_generated(rd, tasks, template)
    uri = c.uri
    if uri and str(uri).startswith("s3://"):
        uri = str(fetch(uri))
    try:
        cands, warnings = load_candidates(c.source, tasks, uri=uri, template=template)
    except CandidateSourceError as e:
        raise RunError(str(e)) from e
    for w in warnings:
        hooks.message(f"warning: {w}")
    if write:   # deterministic content, rewritten whole
        key = shard_key(CANDIDATES)
        path = rd.path / key
        tmp = path.with_suffix(".jsonl.tmp")
        tmp.write_text("".join(record_to_json(to_record(spec.metadata.name, x)) + "\n" for x in cands),
                       encoding="utf-8")
        tmp.replace(path)
        rd.push(key)
    return cands
