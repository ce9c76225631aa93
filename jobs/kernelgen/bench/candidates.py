"""Candidate sources: the suite's reference answers, a JSONL of generations, or a directory of files.

JSONL lines may be CandidateRecords (``task_id, sample, files`` — what the generate stage writes, with the raw
``response`` kept alongside) or raw generations (``task_id, sample, response`` [+ ``reasoning``]) that are
parsed here. ``task_id`` may be the full id (``level1/Math/Sqrt``) or the op name (``Sqrt``).

Directory layout: ``<root>/<task>/<sample>/`` holding ``op_host/...``/``op_kernel/...`` files, or
``<root>/<task>/<sample>.txt`` (or ``.md``) holding a raw response; ``<task>`` is the op name or the task id
with ``/`` kept as directories.
"""
from __future__ import annotations

import hashlib
import json
import posixpath
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterable

from .model import Candidate, CandidateRecord, Task
from .parse import parse_response

SOURCES = ("reference", "jsonl", "directory", "generate")


class CandidateSourceError(Exception):
    """The source itself is unusable (missing file, bad JSON line): an infrastructure problem."""


#: the folders (and top-level file) of a candidate, as in a cann-ops project: anything else is refused
CANDIDATE_ROOTS = ("op_host", "op_kernel")
CANDIDATE_TOP_FILES = ("CMakeLists.txt",)
_KEY_RX = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
MAX_FILE_CHARS = 1 << 20
MAX_TOTAL_CHARS = 4 << 20
MAX_FILES = 64


def invalid_files(files: Any) -> str:
    """Why a candidate's file map may not be written anywhere ('' when it is fine).

    Keys come from untrusted JSONL: each must be a relative, normalised POSIX path of plain names (no '..',
    no leading '/', no backslash, no hidden or empty component) under op_host/ or op_kernel/, or one of the
    top-level build files; contents must be text of bounded size."""
    if not isinstance(files, dict):
        return "candidate files must be a mapping of relative paths to text"
    if len(files) > MAX_FILES:
        return f"candidate has {len(files)} files, more than {MAX_FILES}"
    total = 0
    for key, text in files.items():
        if not isinstance(key, str) or not isinstance(text, str):
            return f"candidate file {key!r}: path and content must be strings"
        parts = key.split("/")
        if len(key) > 200 or len(parts) > 6 or not all(_KEY_RX.fullmatch(p) for p in parts) \
                or posixpath.normpath(key) != key:
            return f"candidate file {key!r}: not a plain relative path"
        if not ((parts[0] in CANDIDATE_ROOTS and len(parts) > 1) or key in CANDIDATE_TOP_FILES):
            return f"candidate file {key!r}: outside {', '.join(f'{r}/' for r in CANDIDATE_ROOTS)} and " \
                   f"{', '.join(CANDIDATE_TOP_FILES)}"
        if len(text) > MAX_FILE_CHARS or "\0" in text:
            return f"candidate file {key!r}: larger than {MAX_FILE_CHARS} characters or binary"
        total += len(text)
    if total > MAX_TOTAL_CHARS:
        return f"candidate files hold {total} characters, more than {MAX_TOTAL_CHARS}"
    return ""


def candidate_sha256(files: dict[str, str]) -> str:
    h = hashlib.sha256()
    for path in sorted(files, key=str):
        h.update(str(path).encode() + b"\0" + str(files[path]).encode() + b"\0")
    return h.hexdigest()


def _resolver(tasks: Iterable[Task]):
    by_key: dict[str, Task] = {}
    for t in tasks:
        for key in (t.task_id, t.op_name, t.root.name, t.kernel_name):
            by_key.setdefault(key.lower(), t)
    return lambda key: by_key.get(str(key).strip("/").lower())


def reference_candidates(tasks: Iterable[Task]) -> tuple[list[Candidate], list[str]]:
    """One candidate (sample 0) per task with an answer/0; tasks without one are listed as warnings."""
    out, warnings = [], []
    for t in tasks:
        if t.answer_dir is None:
            warnings.append(f"{t.task_id}: no answer/0 reference answer; skipped")
            continue
        files = {p.relative_to(t.answer_dir).as_posix(): p.read_text(encoding="utf-8")
                 for p in sorted(t.answer_dir.rglob("*"))
                 if p.is_file() and "__pycache__" not in p.parts}   # CMakeLists.txt too: its build options
        if not any(k.startswith("op_kernel/") for k in files):
            warnings.append(f"{t.answer_dir}: no op_kernel/ file in the reference answer; skipped")
            continue
        out.append(Candidate(task_id=t.task_id, sample=0, files=files, origin="reference"))
    return out, warnings


def from_response(task: Task, sample: int, response: str, *, template: str, origin: str,
                  reasoning: str = "", meta: dict[str, Any] | None = None) -> Candidate:
    parsed = parse_response(response, task.kernel_name, template, reasoning=reasoning)
    return Candidate(task_id=task.task_id, sample=sample, files=parsed.files, origin=origin,
                     response_sha256=hashlib.sha256(response.encode()).hexdigest(), meta=dict(meta or {}),
                     parse_error=parsed.error)


def jsonl_candidates(path: str | Path, tasks: Iterable[Task], *, template: str = "kernel-only"
                     ) -> tuple[list[Candidate], list[str]]:
    path = Path(str(path).removeprefix("file://"))
    if not path.is_file():
        raise CandidateSourceError(f"{path}: candidates JSONL does not exist")
    find = _resolver(tasks)
    out: dict[tuple[str, int], Candidate] = {}
    warnings: list[str] = []
    with path.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                if lineno > 1 and not line.endswith("\n"):   # a writer killed mid-line: ignore the tail
                    warnings.append(f"{path}:{lineno}: incomplete last line ignored")
                    continue
                raise CandidateSourceError(f"{path}:{lineno}: not JSON: {e}") from e
            task = find(rec.get("task_id", ""))
            if task is None:
                warnings.append(f"{path}:{lineno}: task {rec.get('task_id')!r} is not in the selected suite; skipped")
                continue
            sample = int(rec.get("sample", 0))
            origin = rec.get("origin") or f"jsonl:{path}"
            if rec.get("files"):
                cand = Candidate(task_id=task.task_id, sample=sample, files=dict(rec["files"]), origin=origin,
                                 response_sha256=rec.get("response_sha256", ""), meta=rec.get("meta") or {},
                                 parse_error="")
            elif rec.get("parse_error"):
                cand = Candidate(task_id=task.task_id, sample=sample, files={}, origin=origin,
                                 response_sha256=rec.get("response_sha256", ""), meta=rec.get("meta") or {},
                                 parse_error=rec["parse_error"])
            else:
                response = rec.get("response", rec.get("completion", rec.get("content")))
                if response is None:
                    raise CandidateSourceError(f"{path}:{lineno}: needs 'files' or 'response'")
                cand = from_response(task, sample, response, template=rec.get("template", template), origin=origin,
                                     reasoning=rec.get("reasoning", ""), meta=rec.get("meta"))
            out[(task.task_id, sample)] = cand        # a later line for the same (task, sample) wins
    return sorted(out.values(), key=lambda c: (c.task_id, c.sample)), warnings


def directory_candidates(root: str | Path, tasks: Iterable[Task], *, template: str = "kernel-only"
                         ) -> tuple[list[Candidate], list[str]]:
    root = Path(str(root).removeprefix("file://"))
    if not root.is_dir():
        raise CandidateSourceError(f"{root}: candidates directory does not exist")
    out, warnings = [], []
    for task in tasks:
        tdir = next((root / k for k in (task.task_id, task.op_name, task.root.name, task.kernel_name)
                     if (root / k).is_dir()), None)
        if tdir is None:
            continue
        for entry in sorted(tdir.iterdir()):
            stem = entry.stem if entry.is_file() else entry.name
            digits = stem.removeprefix("sample")
            if not digits.isdigit():
                continue
            sample = int(digits)
            if entry.is_dir():
                files = {p.relative_to(entry).as_posix(): p.read_text(encoding="utf-8")
                         for p in sorted(entry.rglob("*")) if p.is_file()
                         and p.relative_to(entry).parts[0] in ("op_host", "op_kernel")}
                if not files:
                    warnings.append(f"{entry}: no op_host/ or op_kernel/ files; skipped")
                    continue
                out.append(Candidate(task.task_id, sample, files, origin=f"dir:{root}"))
            elif entry.suffix in (".txt", ".md"):
                out.append(from_response(task, sample, entry.read_text(encoding="utf-8"), template=template,
                                         origin=f"dir:{root}"))
    return out, warnings


def load_candidates(source: str, tasks: list[Task], *, uri: str | None = None, template: str = "kernel-only"
                    ) -> tuple[list[Candidate], list[str]]:
    if source == "reference":
        return reference_candidates(tasks)
    if source == "jsonl":
        return jsonl_candidates(uri or "", tasks, template=template)
    if source == "directory":
        return directory_candidates(uri or "", tasks, template=template)
    if source == "generate":
        raise CandidateSourceError("source 'generate' is produced by the generate stage; read its JSONL with "
                                   "source 'jsonl'")
    raise CandidateSourceError(f"unknown candidate source {source!r}; expected one of {SOURCES}")


def to_record(run: str, cand: Candidate, *, response: str = "", reasoning: str = "") -> CandidateRecord:
    return CandidateRecord(run=run, task_id=cand.task_id, sample=cand.sample, origin=cand.origin,
                           files=cand.files, candidate_sha256=candidate_sha256(cand.files),
                           response_sha256=cand.response_sha256, response=response, reasoning=reasoning,
                           parse_error=cand.parse_error, meta=cand.meta)


def record_to_json(rec: CandidateRecord) -> str:
    return json.dumps(asdict(rec), sort_keys=True, ensure_ascii=False)
