"""`kernelgen bench diff`: BenchRuns side by side (the paper's Table 2 layout) and the difference between
consecutive runs with bootstrap confidence intervals, per level and overall, plus the tasks that flipped.

The difference is paired: tasks present in both runs are resampled with replacement (fixed seed), each metric is
recomputed for both runs on the same resampled tasks, and the percentile interval of (B - A) is reported. Metrics:
compile rate and exec rate (over candidates), pass@k (unbiased, over tasks; only k <= the fewest samples of a task
in either run), fast_p (KernelBench; only where both runs timed every correct candidate) and the geometric-mean
speedup of correct timed candidates. Infrastructure failures are left out, as in the run's own metrics.
"""
from __future__ import annotations

import html
import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from functools import lru_cache

from .metrics import BOOTSTRAP_SEED, CandidateOutcome, candidate_outcomes, geomean, p_key, pass_at_k
from .records import read_records
from .report import _md_table_to_html

DEFAULT_KS = (1, 10, 100)
DEFAULT_PS = (1.0, 1.5, 2.0)


@dataclass
class RunData:
    name: str
    uri: str
    outcomes: list[CandidateOutcome]
    ks: list[int] = field(default_factory=lambda: list(DEFAULT_KS))
    ps: list[float] = field(default_factory=lambda: list(DEFAULT_PS))


def load_run(uri: str, name: str | None = None) -> RunData:
    """A BenchRun's outcomes from its output (a local directory or an s3:// prefix): records.jsonl and the
    evaluate shards' records/*.jsonl; ks and fast_p's p values from its summary.json when present."""
    from kernelgen.storage import fetch

    root = Path(fetch(uri))
    paths = [p for p in [root / "records.jsonl", *sorted((root / "records").glob("*.jsonl"))] if p.exists()]
    if not paths:
        raise FileNotFoundError(f"no records.jsonl under {uri}: not a BenchRun output")
    outcomes = candidate_outcomes(read_records(paths))
    run = RunData(name or root.name, uri, outcomes)
    summary = root / "summary.json"
    if summary.exists():
        data = json.loads(summary.read_text())
        config = (data.get("metrics") or {}).get("config") or {}
        run.name = name or data.get("run") or run.name
        run.ks = list(config.get("k") or run.ks)
        run.ps = list(config.get("fast_p") or run.ps)
    return run


# ------------------------------------------------------------------------------------------------ per task figures

@dataclass
class _Task:
    level: int
    n: int = 0
    compiled: int = 0
    correct: int = 0
    timed_correct: int = 0
    speedups: list[float] = field(default_factory=list)   # of correct timed candidates


def _tasks(outcomes: Sequence[CandidateOutcome]) -> dict[str, _Task]:
    out: dict[str, _Task] = {}
    for o in outcomes:
        if o.infra:
            continue
        t = out.setdefault(o.task_id, _Task(o.level))
        t.n += 1
        t.compiled += int(o.compiled)
        t.correct += int(o.correct)
        if o.correct and o.speedup:
            t.timed_correct += 1
            t.speedups.append(o.speedup)
    return out


_pass_at_k = lru_cache(maxsize=None)(pass_at_k)   # the bootstrap asks for the same (n, c, k) many times


def _figures(tasks: dict[str, _Task], ids: list[str], ks: Sequence[int], ps: Sequence[float]) -> dict[str, Any]:
    """Point figures over the given task ids (with repeats: a bootstrap resample)."""
    ts = [tasks[i] for i in ids]
    n = sum(t.n for t in ts)
    out: dict[str, Any] = {
        "compile_rate": sum(t.compiled for t in ts) / n if n else None,
        "exec_rate": sum(t.correct for t in ts) / n if n else None,
        "speedup_geomean": geomean(s for t in ts for s in t.speedups),
    }
    for k in ks:
        out[f"pass@{k}"] = float(np.mean([_pass_at_k(t.n, t.correct, k) for t in ts])) if ts else None
        out[f"compile_pass@{k}"] = float(np.mean([_pass_at_k(t.n, t.compiled, k) for t in ts])) if ts else None
    timed = all(t.timed_correct == t.correct for t in ts)
    for p in ps:
        out[f"fast_{p_key(p)}"] = (sum(sum(s >= p for s in t.speedups) for t in ts) / n) if n and timed else None
    return out


# ------------------------------------------------------------------------------------------------ the diff

METRICS = ("compile_rate", "exec_rate")  # then pass@k, fast_p, speedup (built per diff)


@dataclass
class ScopeDiff:
    scope: str                       # "all" or "level N"
    tasks: int                       # tasks in both runs
    rows: list[dict[str, Any]]       # metric, a, b, delta, ci


@dataclass
class RunDiff:
    a: str
    b: str
    scopes: list[ScopeDiff]
    flipped: list[dict[str, Any]]
    only_a: list[str]
    only_b: list[str]
    confidence: float
    samples: int


def _bootstrap_deltas(ta: dict[str, _Task], tb: dict[str, _Task], ids: list[str], metrics: list[str],
                      ks: list[int], ps: list[float], samples: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    idx = rng.integers(0, len(ids), size=(samples, len(ids)))
    deltas: dict[str, list[float]] = defaultdict(list)
    for row in idx:
        pick = [ids[i] for i in row]
        fa, fb = _figures(ta, pick, ks, ps), _figures(tb, pick, ks, ps)
        for m in metrics:
            va, vb = fa.get(m), fb.get(m)
            deltas[m].append(math.nan if va is None or vb is None else vb - va)
    return {m: np.array(v, dtype=np.float64) for m, v in deltas.items()}


def diff(a: RunData, b: RunData, *, samples: int = 1000, confidence: float = 0.95) -> RunDiff:
    """B against A: per level and overall, with paired bootstrap intervals of B - A over the common tasks."""
    ta, tb = _tasks(a.outcomes), _tasks(b.outcomes)
    common = sorted(set(ta) & set(tb))
    scopes_ids = [("all", common)] + [
        (f"level {lvl}", [t for t in common if ta[t].level == lvl])
        for lvl in sorted({ta[t].level for t in common})]
    ps = sorted(set(a.ps) & set(b.ps))
    lo, hi = (1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100
    scopes = []
    for scope, ids in scopes_ids:
        if not ids:
            continue
        n_min = min(min(ta[t].n, tb[t].n) for t in ids)
        ks = [k for k in sorted(set(a.ks) & set(b.ks)) if k <= n_min]
        metrics = [*METRICS, *(f"pass@{k}" for k in ks), *(f"fast_{p_key(p)}" for p in ps), "speedup_geomean"]
        fa, fb = _figures(ta, ids, ks, ps), _figures(tb, ids, ks, ps)
        boot = _bootstrap_deltas(ta, tb, ids, metrics, ks, ps, samples) if samples and len(ids) > 1 else {}
        rows = []
        for m in metrics:
            va, vb = fa.get(m), fb.get(m)
            d = boot.get(m)
            ok = d[~np.isnan(d)] if d is not None else np.array([])
            ci = [float(np.percentile(ok, lo)), float(np.percentile(ok, hi))] if len(ok) else None
            rows.append({"metric": m, "a": va, "b": vb, "delta": None if va is None or vb is None else vb - va,
                         "ci": ci})
        scopes.append(ScopeDiff(scope, len(ids), rows))
    flipped = []
    for t in common:
        x, y = ta[t], tb[t]
        change = []
        if (x.correct > 0) != (y.correct > 0):
            change.append("now correct" if y.correct else "no longer correct")
        if (x.compiled > 0) != (y.compiled > 0):
            change.append("now compiles" if y.compiled else "no longer compiles")
        if change:
            flipped.append({"task_id": t, "level": x.level, "change": ", ".join(change),
                            "a": {"n": x.n, "compiled": x.compiled, "correct": x.correct},
                            "b": {"n": y.n, "compiled": y.compiled, "correct": y.correct}})
    return RunDiff(a.name, b.name, scopes, flipped, sorted(set(ta) - set(tb)), sorted(set(tb) - set(ta)),
                   confidence, samples)


# ------------------------------------------------------------------------------------------------ rendering

def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.2f}"


def _fmt(metric: str, x: float | None, signed: bool = False) -> str:
    if x is None:
        return "—"
    if metric == "speedup_geomean":
        return f"{x:+.2f}×" if signed else f"{x:.2f}×"
    return f"{100 * x:+.2f}" if signed else f"{100 * x:.2f}"


def table2(runs: Sequence[RunData]) -> list[str]:
    """The paper's Table 2 layout: one block of rows per run (Level 1..3 and Mean), Pass@k CR and ER per k,
    fast_p and speedup. Pass@k columns cover the k every run has samples for."""
    per_run = {r.name: _tasks(r.outcomes) for r in runs}
    n_min = min((t.n for ts in per_run.values() for t in ts.values()), default=0)
    ks = [k for k in sorted(set.intersection(*(set(r.ks) for r in runs))) if k <= n_min]
    ps = sorted(set.intersection(*(set(r.ps) for r in runs)))
    head = ["Model", "Level", *[f"Pass@{k} {w}" for k in ks for w in ("CR (%)", "ER (%)")],
            *[f"fast_{p_key(p)} (%)" for p in ps], "Speedup (×)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    levels = sorted({t.level for ts in per_run.values() for t in ts.values()})
    for r in runs:
        ts = per_run[r.name]
        for i, (label, ids) in enumerate([(f"Level {lvl}", [t for t in ts if ts[t].level == lvl]) for lvl in levels]
                                         + [("Mean", sorted(ts))]):
            f = _figures(ts, ids, ks, ps) if ids else {}
            cells = [r.name if i == 0 else "", label,
                     *[_pct(f.get(f"{w}@{k}")) for k in ks for w in ("compile_pass", "pass")],
                     *[_pct(f.get(f"fast_{p_key(p)}")) for p in ps],
                     "—" if f.get("speedup_geomean") is None else f"{f['speedup_geomean']:.2f}"]
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def diff_lines(d: RunDiff) -> list[str]:
    pct = int(round(100 * d.confidence))
    out = [f"### {d.b} vs {d.a}", ""]
    for s in d.scopes:
        out += [f"**{s.scope}** ({s.tasks} tasks in both runs)", "",
                f"| metric | {d.a} | {d.b} | Δ ({d.b} − {d.a}) | {pct}% CI of Δ |", "|---|---|---|---|---|"]
        for row in s.rows:
            m = row["metric"]
            ci = row["ci"]
            ci_text = "—" if ci is None else f"[{_fmt(m, ci[0], True)}, {_fmt(m, ci[1], True)}]"
            out.append(f"| {m.replace('_', ' ')} | {_fmt(m, row['a'])} | {_fmt(m, row['b'])} | "
                       f"{_fmt(m, row['delta'], True)} | {ci_text} |")
        out.append("")
    out += ["**Tasks that flipped**", ""]
    if d.flipped:
        out += [f"| task | level | change | {d.a} correct/compiled/n | {d.b} correct/compiled/n |", "|---|---|---|---|---|"]
        out += [f"| {f['task_id']} | {f['level']} | {f['change']} | "
                f"{f['a']['correct']}/{f['a']['compiled']}/{f['a']['n']} | "
                f"{f['b']['correct']}/{f['b']['compiled']}/{f['b']['n']} |" for f in d.flipped]
    else:
        out.append("None: every task is correct (and compiles) in both runs or in neither.")
    if d.only_a or d.only_b:
        out += ["", f"Tasks only in {d.a}: {', '.join(d.only_a) or 'none'}; only in {d.b}: "
                    f"{', '.join(d.only_b) or 'none'} (left out of the differences)."]
    return out + [""]


def render_markdown(runs: Sequence[RunData], diffs: Sequence[RunDiff]) -> str:
    samples = diffs[0].samples if diffs else 0
    out = ["# BenchRun comparison", "", "Runs: " + ", ".join(f"`{r.name}` ({r.uri})" for r in runs), "",
           "## Results (paper Table 2 layout)", "",
           "CR: compile pass@k, ER: execution (correct) pass@k, unbiased estimator over tasks; fast_p: candidates "
           "correct and at least p× faster than the baseline (— where correct candidates were not timed); "
           "speedup: geometric mean over correct timed candidates.", "", *table2(runs), "",
           "## Differences", "",
           f"Rates in percentage points. Paired bootstrap over the tasks both runs evaluated ({samples} resamples); "
           "compile/exec rate over candidates, pass@k over tasks.", ""]
    for d in diffs:
        out += diff_lines(d)
    return "\n".join(out) + "\n"


def render_html(runs: Sequence[RunData], diffs: Sequence[RunDiff]) -> str:
    """The Markdown report as one self-contained HTML page (tables converted, prose kept)."""
    body, table = [], []
    for line in render_markdown(runs, diffs).splitlines() + [""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            body.append(_md_table_to_html(table))
            table = []
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            body.append(f"<h{level}>{html.escape(line.lstrip('#').strip())}</h{level}>")
        elif line.strip():
            body.append(f"<p>{html.escape(line.replace('**', '').replace('`', ''))}</p>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>BenchRun comparison</title><style>"
            "body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em}"
            "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px}"
            "th{background:#f3f3f3}</style></head><body>" + "\n".join(body) + "</body></html>\n")


def to_json(runs: Sequence[RunData], diffs: Sequence[RunDiff]) -> dict[str, Any]:
    return {"runs": [{"name": r.name, "uri": r.uri} for r in runs],
            "diffs": [{"a": d.a, "b": d.b, "confidence": d.confidence, "samples": d.samples,
                       "scopes": [{"scope": s.scope, "tasks": s.tasks, "rows": s.rows} for s in d.scopes],
                       "flipped": d.flipped, "onlyA": d.only_a, "onlyB": d.only_b} for d in diffs]}


__all__ = ["RunData", "RunDiff", "diff", "load_run", "render_html", "render_markdown", "table2", "to_json"]
