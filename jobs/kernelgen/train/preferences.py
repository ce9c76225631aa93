"""Execution-based preference pairs from BenchRun records (paper §4.2.2, Table 4).

Each generated sample of a task is classed by what its test cases did:
- Green: every case ran and matched the reference;
- Orange: it compiled but at least one case failed (wrong values, crash, timeout: "compile-pass but
  execution-fail" in Table 4);
- Purple: no code could be extracted or it did not compile ("compile-fail").
Samples touched by harness failures (``infra_error``) or without any record are left out.

Per task, Green responses are preferred to the negatives that the strategy selects (Table 4's ablation:
``green-vs-orange`` = "compile-pass but execution-fail" negatives, ``green-vs-purple`` = "compile-fail"). Minimum
quality of a pair: the chosen kernel passed every case the task was evaluated on in its run (a sample missing a
case another sample of the task ran is "incomplete", never chosen), and chosen and rejected answered the same
prompt (samples are grouped by the prompt's hash, so runs with another template or shape mode never pair across).
Pairs are deduplicated by response text and balanced: each Green and each negative is used as evenly as possible,
and with ``green-vs-both`` the two negative classes alternate, up to ``max_pairs_per_task``. The manifest reports
pair counts per task and negative class, and every task without pairs with the reason; each pair keeps the
rejected kernel's first failing verdict and, for compile failures, its compile-error class (paper Appendix C).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from kernelgen.bench.model import CandidateRecord, EvalRecord, Verdict
from kernelgen.storage import StoreError
from kernelgen.train import artifacts
from kernelgen.train.data import inline_reasoning

GREEN, ORANGE, PURPLE = "green", "orange", "purple"
STRATEGIES: dict[str, tuple[str, ...]] = {
    "green-vs-orange": (ORANGE,),
    "green-vs-purple": (PURPLE,),
    "green-vs-both": (ORANGE, PURPLE),
}
PromptBuilder = Callable[[CandidateRecord], list[dict[str, str]]]


def _from_dict(cls: type, row: dict[str, Any]) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in row.items() if k in names})


def _jsonl(uri: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in artifacts.read_bytes(uri).decode().splitlines() if line.strip()]


def load_run(run_uri: str) -> tuple[list[EvalRecord], list[CandidateRecord]]:
    """records.jsonl and candidates.jsonl of one BenchRun output."""
    records = [_from_dict(EvalRecord, r) for r in _jsonl(artifacts.join(run_uri, "records.jsonl"))]
    candidates = [_from_dict(CandidateRecord, r) for r in _jsonl(artifacts.join(run_uri, "candidates.jsonl"))]
    return records, candidates


def classify(records: Iterable[EvalRecord], expected_cases: Iterable[int] | None = None) -> str | None:
    """Green/Orange/Purple for all case records of one (task, sample); None when it cannot be judged (a harness
    failure, no record, or -- for a would-be Green -- a case of `expected_cases` that it has no record for)."""
    records = list(records)
    verdicts = [Verdict(r.verdict) for r in records]
    if not verdicts or Verdict.INFRA_ERROR in verdicts:
        return None
    if all(v is Verdict.OK for v in verdicts):
        missing = set(expected_cases or ()) - {r.case_id for r in records}
        return None if missing else GREEN
    if any(not v.compiled for v in verdicts):
        return PURPLE
    return ORANGE


def failure_of(records: Iterable[EvalRecord]) -> dict[str, Any]:
    """The first failing case's verdict (in case order) and, for a compile failure, its error class."""
    bad = sorted((r for r in records if r.verdict != Verdict.OK.value), key=lambda r: r.case_id)
    if not bad:
        return {}
    out: dict[str, Any] = {"verdict": bad[0].verdict}
    error_class = next((r.error_class for r in bad if r.error_class), None)
    if error_class or bad[0].verdict == Verdict.COMPILE_ERROR.value:
        out["errorClass"] = error_class or "other"
    return out


def response_text(candidate: CandidateRecord) -> str:
    """What the model said (reasoning inline); reference/file candidates are rendered as code blocks."""
    if candidate.response:
        return inline_reasoning(candidate.response, candidate.reasoning)
    blocks = [f"```cpp\n// {path}\n{text.rstrip()}\n```" for path, text in sorted(candidate.files.items())]
    return "\n\n".join(blocks)


def prompt_of(candidate: CandidateRecord) -> list[dict[str, str]] | None:
    """The generation prompt, when the generator recorded it in the candidate's meta."""
    meta = candidate.meta or {}
    if isinstance(meta.get("messages"), list):
        return [{"role": m["role"], "content": m["content"]} for m in meta["messages"]]
    if isinstance(meta.get("prompt"), str):
        return [{"role": "user", "content": meta["prompt"]}]
    return None


def suite_prompt_builder(suite_uri: str = "builtin", *, template: str = "kernel-only",
                         shape_mode: str = "static") -> Callable[[CandidateRecord], list[dict[str, str]]]:
    """Rebuild a candidate's generation prompt from the suite, as BenchRun's generate stage built it.

    The template and shape mode come from the candidate's meta when the generator recorded them (the defaults
    otherwise); a recorded ``prompt_sha256`` must match the rebuilt prompt, so a suite that changed since the
    run is caught instead of silently pairing answers with another question.
    """
    from kernelgen.bench.prompts import build_prompt, prompt_sha256
    from kernelgen.bench.tasks import load_suite

    tasks = {t.task_id: t for t in load_suite(suite_uri).tasks}

    def build(candidate: CandidateRecord) -> list[dict[str, str]]:
        meta = candidate.meta or {}
        task = tasks.get(candidate.task_id)
        if task is None:
            raise ValueError(f"task {candidate.task_id} is not in suite {suite_uri}")
        text = build_prompt(task, template=meta.get("template", template),
                            shape_mode=meta.get("shape_mode", shape_mode))
        if meta.get("prompt_sha256") and meta["prompt_sha256"] != prompt_sha256(text):
            raise ValueError(f"{candidate.task_id}: the suite's prompt differs from the one the run used "
                             f"(prompt_sha256 mismatch); use the run's suite")
        return [{"role": "user", "content": text}]

    return build


@dataclass
class _Sample:
    run: str
    sample: int
    cls: str
    text: str
    sha256: str
    candidate_sha256: str
    prompt_sha256: str | None = None
    failure: dict[str, Any] = field(default_factory=dict)
    duplicates: list[int] = field(default_factory=list)

    def provenance(self) -> dict[str, Any]:
        return {"run": self.run, "sample": self.sample, "class": self.cls, "candidate_sha256": self.candidate_sha256,
                **self.failure}


def _prompt_sha(prompt: list[dict[str, str]] | None) -> str | None:
    return None if prompt is None else hashlib.sha256(json.dumps(prompt, sort_keys=True).encode()).hexdigest()


def skip_reason(samples: list[_Sample], negative_classes: tuple[str, ...]) -> str | None:
    """Why a task yields no pair (None when it yields some)."""
    greens = [s for s in samples if s.cls == GREEN]
    negatives = [s for s in samples if s.cls in negative_classes]
    if not greens:
        return "no correct kernel"
    if not negatives:
        return f"no {' or '.join(negative_classes)} kernel"
    if not any(g.prompt_sha256 == n.prompt_sha256 for g in greens for n in negatives):
        return "correct and failing kernels answered different prompts"
    return None


@dataclass
class PreferenceSet:
    rows: list[dict[str, Any]]
    manifest: dict[str, Any]


def _balanced_pairs(greens: list[_Sample], negatives: list[_Sample], limit: int) -> list[tuple[_Sample, _Sample]]:
    """Pick up to `limit` distinct (green, negative) pairs, spreading use over samples and negative classes."""
    candidates = [(i, j) for i in range(len(greens)) for j in range(len(negatives))
                  if greens[i].sha256 != negatives[j].sha256]
    uses_g, uses_n, uses_cls = [0] * len(greens), [0] * len(negatives), defaultdict(int)
    chosen: list[tuple[_Sample, _Sample]] = []
    while candidates and len(chosen) < limit:
        best = min(candidates, key=lambda p: (uses_cls[negatives[p[1]].cls], uses_g[p[0]] + uses_n[p[1]],
                                              max(uses_g[p[0]], uses_n[p[1]]), p))
        candidates.remove(best)
        i, j = best
        uses_g[i] += 1
        uses_n[j] += 1
        uses_cls[negatives[j].cls] += 1
        chosen.append((greens[i], negatives[j]))
    return chosen


def build(runs: list[tuple[str, list[EvalRecord], list[CandidateRecord]]], *, strategy: str = "green-vs-both",
          max_pairs_per_task: int = 16, prompt_builder: PromptBuilder | None = None) -> PreferenceSet:
    """Preference pairs from one or more BenchRuns, given as (run uri, records, candidates)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {sorted(STRATEGIES)}, not {strategy!r}")
    negative_classes = STRATEGIES[strategy]
    by_task: dict[str, dict[str, _Sample]] = defaultdict(dict)   # task -> text sha -> sample
    prompts: dict[str | None, list[dict[str, str]]] = {}          # prompt sha -> prompt
    counts = {GREEN: 0, ORANGE: 0, PURPLE: 0, "unjudged": 0, "incomplete": 0, "duplicates": 0}
    run_names = []
    for run_uri, records, candidates in runs:
        cases: dict[tuple[str, int], list[EvalRecord]] = defaultdict(list)
        task_cases: dict[str, set[int]] = defaultdict(set)   # every case a task was evaluated on in this run
        for r in records:
            cases[(r.task_id, r.sample)].append(r)
            if r.verdict != Verdict.INFRA_ERROR.value:
                task_cases[r.task_id].add(r.case_id)
        run_names.extend(sorted({r.run for r in records}) or [run_uri])
        for cand in sorted(candidates, key=lambda c: (c.task_id, c.sample)):
            recs = cases.get((cand.task_id, cand.sample), [])
            cls = classify(recs, task_cases[cand.task_id])
            if cls is None:
                counts["incomplete" if recs and classify(recs) == GREEN else "unjudged"] += 1
                continue
            counts[cls] += 1
            text = response_text(cand)
            sha = hashlib.sha256(text.encode()).hexdigest()
            seen = by_task[cand.task_id].get(sha)
            if seen is not None:
                counts["duplicates"] += 1
                seen.duplicates.append(cand.sample)
                continue
            prompt = prompt_of(cand) or (prompt_builder(cand) if prompt_builder else None)
            psha = _prompt_sha(prompt)
            if prompt is not None:
                prompts.setdefault(psha, prompt)
            by_task[cand.task_id][sha] = _Sample(cand.run or run_uri, cand.sample, cls, text, sha,
                                                 cand.candidate_sha256, psha,
                                                 failure_of(recs) if cls != GREEN else {})
    rows: list[dict[str, Any]] = []
    per_task: dict[str, dict[str, int]] = {}
    skipped: dict[str, str] = {}
    missing_prompt = []
    for task_id in sorted(by_task):
        samples = list(by_task[task_id].values())
        pairs: list[tuple[_Sample, _Sample]] = []
        # Pairs share the prompt: balance within each prompt group, the largest groups first, up to the task's cap.
        groups: dict[str | None, list[_Sample]] = defaultdict(list)
        for s in samples:
            groups[s.prompt_sha256].append(s)
        for psha, group in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0] or "")):
            greens = [s for s in group if s.cls == GREEN]
            negatives = [s for s in group if s.cls in negative_classes]
            pairs += _balanced_pairs(greens, negatives, max_pairs_per_task - len(pairs))
        per_task[task_id] = {GREEN: sum(s.cls == GREEN for s in samples), ORANGE: sum(s.cls == ORANGE for s in samples),
                             PURPLE: sum(s.cls == PURPLE for s in samples), "pairs": len(pairs)}
        if not pairs:
            skipped[task_id] = skip_reason(samples, negative_classes) or "only identical responses"
            continue
        if any(good.prompt_sha256 not in prompts for good, _ in pairs):
            missing_prompt.append(task_id)
            continue
        for good, bad in pairs:
            rows.append({
                "prompt": prompts[good.prompt_sha256],
                "chosen": [{"role": "assistant", "content": good.text}],
                "rejected": [{"role": "assistant", "content": bad.text}],
                "provenance": {"task_id": task_id, "strategy": strategy, "prompt_sha256": good.prompt_sha256,
                               "chosen": good.provenance(), "rejected": bad.provenance()},
            })
    if missing_prompt:
        raise ValueError(f"no prompt recorded for {len(missing_prompt)} task(s) (e.g. {missing_prompt[0]}); "
                         "the candidates' meta lacks 'messages'/'prompt' and no prompt builder was given")
    manifest = {
        "kind": "preferences", "strategy": strategy, "maxPairsPerTask": max_pairs_per_task,
        "runs": sorted(set(run_names)), "sources": [u for u, _, _ in runs],
        "samples": counts, "tasks": len(by_task),
        "tasksWithPairs": sum(1 for t in per_task.values() if t["pairs"]),
        "pairs": len(rows),
        "pairsByNegative": {c: sum(r["provenance"]["rejected"]["class"] == c for r in rows) for c in negative_classes},
        "rejectedErrorClasses": dict(sorted(Counter(r["provenance"]["rejected"]["errorClass"] for r in rows
                                                    if "errorClass" in r["provenance"]["rejected"]).items())),
        "skippedTasks": skipped,
        "perTask": per_task,
    }
    return PreferenceSet(rows=rows, manifest=manifest)


def write(pref: PreferenceSet, out_uri: str) -> str:
    """Write ``preferences.jsonl`` and ``manifest.json`` under `out_uri`; returns the dataset file URI."""
    data_uri = artifacts.join(out_uri, "preferences.jsonl")
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in pref.rows)
    artifacts.write_bytes(data_uri, body.encode())
    artifacts.write_bytes(artifacts.join(out_uri, "manifest.json"), json.dumps(pref.manifest, indent=2).encode())
    return data_uri


def run_suite(run_uri: str) -> tuple[str, str]:
    """(suite, shape mode) a BenchRun evaluated, from its summary.json (builtin/static when absent)."""
    try:
        summary = json.loads(artifacts.read_bytes(artifacts.join(run_uri, "summary.json")))
    except (OSError, ValueError, StoreError):
        return "builtin", "static"
    return summary.get("suite") or "builtin", summary.get("shape_mode") or "static"


def from_uris(run_uris: list[str], *, suite_uri: str | None = None, template: str = "kernel-only",
              **kwargs: Any) -> PreferenceSet:
    """Preference pairs from BenchRun outputs; prompts not recorded with the candidates are rebuilt from the suite
    (`suite_uri`, else the one the first run's summary names)."""
    suite, shape_mode = run_suite(run_uris[0])
    kwargs.setdefault("prompt_builder", suite_prompt_builder(suite_uri or suite, template=template,
                                                             shape_mode=shape_mode))
    return build([(u, *load_run(u)) for u in run_uris], **kwargs)
