"""Metrics over EvalRecords.

Units: a *candidate* is one (task, sample); it compiled when its build succeeded, and it is correct when every
evaluated case of it is ``ok`` (static mode evaluates one case, dynamic mode all of them).
- compile rate / exec rate: compiled / correct candidates over all candidates, overall and per level;
- pass@k: the unbiased estimator 1 - C(n-c, k)/C(n, k) per task, in its stable product form, averaged over
  tasks; reported for k only where every task in scope has n >= k (HumanEval's convention);
- compile pass@k: the same estimator with "compiled" as success (the paper's Table 2 "Pass@k CR");
- speedup geomean over correct candidates that were timed (a candidate's speedup is the geomean over its cases);
- fast_p (KernelBench): the share of candidates that are correct and at least p times faster than the baseline;
  reported only where every correct candidate was timed (else unknown; fast_p of a run with no correct candidate
  is 0);
- NPUKernelBench's score: 0.2*L1 + 0.3*L2 + 0.5*L3 of per-level micro-averaged case pass rates (levels absent
  from the run contribute 0, as in the reference harness);
- bootstrap confidence intervals: tasks resampled with replacement (fixed RNG seed, so reruns agree);
- counts per verdict (per record and per candidate) and per compile-error class; case pass rates per dtype.
Candidates whose records carry ``infra_error`` are the harness's failures, not the model's: they are counted
separately and left out of every rate.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from .model import EvalRecord, Verdict

NKB_LEVEL_WEIGHTS = {1: 0.2, 2: 0.3, 3: 0.5}
BOOTSTRAP_SEED = 20240601


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021) in the numerically stable form 1 - prod_{i=n-c+1}^{n} (1 - k/i)."""
    if n < k:
        raise ValueError(f"pass@{k} needs n >= k samples (n={n})")
    if c < 0 or c > n:
        raise ValueError(f"c must be within 0..n (n={n}, c={c})")
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1, dtype=np.float64)))


def geomean(values: Iterable[float]) -> float | None:
    vals = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    if not vals:
        return None
    return float(math.exp(sum(math.log(v) for v in vals) / len(vals)))


@dataclass
class CandidateOutcome:
    task_id: str
    level: int
    category: str
    sample: int
    compiled: bool
    correct: bool
    verdict: str                 # ok, or the first failing case's verdict (in case order)
    error_class: str | None
    speedup: float | None
    infra: bool
    cases: int
    cases_ok: int


def candidate_outcomes(records: Iterable[EvalRecord]) -> list[CandidateOutcome]:
    groups: dict[tuple[str, int], list[EvalRecord]] = defaultdict(list)
    for r in records:
        groups[(r.task_id, r.sample)].append(r)
    out = []
    for (task_id, sample), recs in sorted(groups.items()):
        recs.sort(key=lambda r: r.case_id)
        bad = [r for r in recs if r.verdict != Verdict.OK.value]
        infra = any(r.verdict == Verdict.INFRA_ERROR.value for r in recs)
        speedups = [r.speedup for r in recs if r.speedup]
        out.append(CandidateOutcome(
            task_id=task_id, level=recs[0].level, category=recs[0].category, sample=sample,
            compiled=all(r.compile_ok for r in recs), correct=not bad,
            verdict=bad[0].verdict if bad else Verdict.OK.value,
            error_class=next((r.error_class for r in recs if r.error_class), None),
            speedup=geomean(speedups) if not bad and len(speedups) == len(recs) else None,
            infra=infra, cases=len(recs), cases_ok=len(recs) - len(bad)))
    return out


def p_key(p: float) -> str:
    """fast_p's key: 1.0 -> "1", 1.5 -> "1.5"."""
    return f"{p:g}"


def fast_p(outcomes: Sequence[CandidateOutcome], ps: Sequence[float]) -> dict[str, float]:
    """KernelBench's fast_p over non-infra candidates: correct and speedup >= p (untimed: unknown, left out)."""
    valid = [o for o in outcomes if not o.infra]
    correct = [o for o in valid if o.correct]
    if not valid or any(o.speedup is None for o in correct):
        return {}
    return {p_key(p): sum(o.speedup >= p for o in correct) / len(valid) for p in ps}


def _per_task(outcomes: Sequence[CandidateOutcome]) -> dict[str, tuple[int, int, int]]:
    """task -> (level, n, c) over non-infra candidates."""
    acc: dict[str, list[int]] = {}
    for o in outcomes:
        if o.infra:
            continue
        a = acc.setdefault(o.task_id, [o.level, 0, 0])
        a[1] += 1
        a[2] += int(o.correct)
    return {t: (a[0], a[1], a[2]) for t, a in acc.items()}


def _rates(outcomes: Sequence[CandidateOutcome], ks: Sequence[int], ps: Sequence[float] = ()) -> dict:
    valid = [o for o in outcomes if not o.infra]
    tasks = _per_task(valid)
    compiled: dict[str, int] = defaultdict(int)
    for o in valid:
        compiled[o.task_id] += int(o.compiled)
    n_min = min((n for _, n, _ in tasks.values()), default=0)
    res = {
        "tasks": len(tasks), "candidates": len(valid),
        "compile_rate": (sum(o.compiled for o in valid) / len(valid)) if valid else None,
        "exec_rate": (sum(o.correct for o in valid) / len(valid)) if valid else None,
        "pass_at_k": {str(k): float(np.mean([pass_at_k(n, c, k) for _, n, c in tasks.values()]))
                      for k in ks if tasks and n_min >= k},
        "compile_pass_at_k": {str(k): float(np.mean([pass_at_k(n, compiled[t], k) for t, (_, n, _) in tasks.items()]))
                              for k in ks if tasks and n_min >= k},
        "speedup_geomean": geomean(o.speedup for o in valid if o.correct and o.speedup),
        "fast_p": fast_p(valid, ps),
        "timed_correct": sum(1 for o in valid if o.correct and o.speedup),
        "n_min": n_min,
    }
    return res


def bootstrap(outcomes: Sequence[CandidateOutcome], ks: Sequence[int], samples: int, confidence: float
              ) -> dict[str, list[float]]:
    """Percentile intervals from resampling tasks with replacement."""
    valid = [o for o in outcomes if not o.infra]
    tasks = _per_task(valid)
    if samples <= 0 or len(tasks) < 2:
        return {}
    by_task: dict[str, list[CandidateOutcome]] = defaultdict(list)
    for o in valid:
        by_task[o.task_id].append(o)
    ids = sorted(tasks)
    n_min = min(n for _, n, _ in tasks.values())
    ks = [k for k in ks if n_min >= k]
    per_task = {t: {"compiled": sum(o.compiled for o in by_task[t]), "correct": sum(o.correct for o in by_task[t]),
                    "n": len(by_task[t]), **{f"pass@{k}": pass_at_k(tasks[t][1], tasks[t][2], k) for k in ks}}
                for t in ids}
    arr = {key: np.array([per_task[t][key] for t in ids], dtype=np.float64)
           for key in ("compiled", "correct", "n", *(f"pass@{k}" for k in ks))}
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    idx = rng.integers(0, len(ids), size=(samples, len(ids)))
    n = arr["n"][idx].sum(axis=1)
    stats = {"compile_rate": arr["compiled"][idx].sum(axis=1) / n, "exec_rate": arr["correct"][idx].sum(axis=1) / n}
    for k in ks:
        stats[f"pass@{k}"] = arr[f"pass@{k}"][idx].mean(axis=1)
    lo, hi = (1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100
    return {key: [float(np.percentile(v, lo)), float(np.percentile(v, hi))] for key, v in stats.items()}


def nkb_score(records: Iterable[EvalRecord]) -> dict:
    per_level: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        if r.verdict == Verdict.INFRA_ERROR.value:
            continue
        per_level[r.level][0] += int(r.verdict == Verdict.OK.value)
        per_level[r.level][1] += 1
    rates = {lvl: p / t for lvl, (p, t) in per_level.items() if t}
    return {"score": sum(NKB_LEVEL_WEIGHTS.get(lvl, 0.0) * rate for lvl, rate in rates.items()),
            "level_pass_rates": {str(k): v for k, v in sorted(rates.items())}, "weights": {
                str(k): v for k, v in NKB_LEVEL_WEIGHTS.items()}}


def by_dtype(records: Iterable[EvalRecord]) -> dict[str, dict]:
    """Case-level pass rates per dtype (fp16/bf16/fp32 behave differently on AscendC)."""
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        if r.verdict == Verdict.INFRA_ERROR.value:
            continue
        key = getattr(r, "dtype", "") or "(none)"
        acc[key][0] += int(r.verdict == Verdict.OK.value)
        acc[key][1] += 1
    return {k: {"records": t, "ok": p, "pass_rate": p / t} for k, (p, t) in sorted(acc.items())}


@dataclass
class MetricsConfig:
    ks: list[int] = field(default_factory=lambda: [1, 10, 100])
    fast_ps: list[float] = field(default_factory=lambda: [1.0, 1.5, 2.0])
    bootstrap_samples: int = 1000
    confidence: float = 0.95


def compute(records: Sequence[EvalRecord], cfg: MetricsConfig | None = None) -> dict:
    cfg = cfg or MetricsConfig()
    records = sorted(records, key=lambda r: r.key)
    outcomes = candidate_outcomes(records)
    overall = _rates(outcomes, cfg.ks, cfg.fast_ps)
    overall["ci"] = bootstrap(outcomes, cfg.ks, cfg.bootstrap_samples, cfg.confidence)
    levels = sorted({o.level for o in outcomes})
    by_level = {}
    for lvl in levels:
        sub = [o for o in outcomes if o.level == lvl]
        by_level[str(lvl)] = _rates(sub, cfg.ks, cfg.fast_ps)
        by_level[str(lvl)]["ci"] = bootstrap(sub, cfg.ks, cfg.bootstrap_samples, cfg.confidence)
    tasks = _per_task(outcomes)
    per_task = []
    for t in sorted({o.task_id for o in outcomes}):
        sub = [o for o in outcomes if o.task_id == t]
        lvl, n, c = tasks.get(t, (sub[0].level, 0, 0))
        per_task.append({"task_id": t, "level": lvl, "category": sub[0].category, "n": n, "correct": c,
                         "compiled": sum(o.compiled for o in sub if not o.infra),
                         "infra_errors": sum(o.infra for o in sub),
                         "verdicts": dict(Counter(o.verdict for o in sub)),
                         "pass_at_k": {str(k): pass_at_k(n, c, k) for k in cfg.ks if n >= k},
                         "speedup_geomean": geomean(o.speedup for o in sub if o.correct and o.speedup)})
    return {
        "overall": overall,
        "by_level": by_level,
        "nkb": nkb_score(records),
        "verdicts": {"records": dict(sorted(Counter(r.verdict for r in records).items())),
                     "candidates": dict(sorted(Counter(o.verdict for o in outcomes).items()))},
        "compile_error_classes": dict(sorted(Counter(o.error_class or "other" for o in outcomes
                                                     if not o.compiled and not o.infra
                                                     and o.verdict == Verdict.COMPILE_ERROR.value).items())),
        "by_dtype": by_dtype(records),
        "infra_errors": sum(o.infra for o in outcomes),
        "records": len(records),
        "per_task": per_task,
        "config": {"k": list(cfg.ks), "fast_p": list(cfg.fast_ps), "bootstrap_samples": cfg.bootstrap_samples,
                   "confidence": cfg.confidence},
    }


def status_results(metrics: dict) -> dict:
    """The BenchRun status `results` block (camelCase) for the operator."""
    def block(m: dict) -> dict:
        pk = m.get("pass_at_k", {})
        return {"tasks": m.get("tasks"), "compileRate": m.get("compile_rate"), "execRate": m.get("exec_rate"),
                "passAt1": pk.get("1"), "passAt10": pk.get("10"), "passAt100": pk.get("100"),
                "fastP": dict(m.get("fast_p") or {}), "speedupGeomean": m.get("speedup_geomean")}
    out = block(metrics["overall"])
    out["byLevel"] = {k: block(v) for k, v in metrics["by_level"].items()}
    out["compileErrorClasses"] = dict(metrics.get("compile_error_classes", {}))
    out["verdicts"] = dict(metrics.get("verdicts", {}).get("candidates", {}))
    return out
