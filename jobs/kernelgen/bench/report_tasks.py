"""Per-task pages of the HTML report: what a reader needs to see why a task's candidates failed.

For every sample: its verdicts over the cases, the candidate's source, the first compiler errors, and for each
failing case its parameters, the judge's message, the error magnitudes and the largest differences. Static files
beside report.html (tasks/<task>.html), linked both ways, so the report opens from disk without a server.
"""
from __future__ import annotations

import hashlib
import html
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Iterable

from .errors import first_errors
from .model import EvalRecord

TASK_DIR = "tasks"
SOURCE_CHARS = 60_000          # per file: a page stays readable and small
FAILING_CASES_SHOWN = 8        # per sample
CSS = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
       "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:left;"
       "vertical-align:top}th{background:#f3f3f3}pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:13px}"
       ".ok{color:#1a7f37}.bad{color:#b42318}section{border-top:1px solid #ddd;margin-top:1.5em}")


def page_name(task_id: str) -> str:
    """A file name for a task id (ids hold '/' and may hold anything a suite author wrote); the hash keeps two ids
    that read alike apart."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", task_id).strip("._")[:80]
    return f"{slug}-{hashlib.sha256(task_id.encode()).hexdigest()[:8]}.html"


def load_candidate_files(run_dir: Path) -> dict[tuple[str, int], dict[str, str]]:
    """(task_id, sample) -> files, from the run's candidates.jsonl and the generate stage's shards."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    for path in [run_dir / "candidates.jsonl", *sorted((run_dir / "candidates").glob("*.jsonl"))]:
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                rec = json.loads(line)
                out[(str(rec["task_id"]), int(rec.get("sample", 0)))] = dict(rec.get("files") or {})
            except (ValueError, KeyError, TypeError):
                continue   # a torn last line of a killed writer: the report shows what is whole
    return out


def _e(x: object) -> str:
    return html.escape(str(x))


def _num(x: float | None) -> str:
    return "—" if x is None else f"{x:.4g}"


def _val(x: object) -> str:
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _diff(r: dict) -> str:
    e, g = r.get("expected"), r.get("got")
    ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (e, g))
    return _val(abs(float(g) - float(e))) if ok else "—"


def _worst_table(rows: list[dict]) -> str:
    if not rows:
        return ""
    body = "".join(f"<tr><td>{_e(r.get('output'))}</td><td>{_e(r.get('index'))}</td><td>{_e(_val(r.get('expected')))}"
                   f"</td><td>{_e(_val(r.get('got')))}</td><td>{_e(_diff(r))}</td></tr>" for r in rows)
    return ("<p>Largest differences:</p><table><tr><th>output</th><th>index</th><th>expected</th><th>got</th>"
            f"<th>|difference|</th></tr>{body}</table>")


def _case_block(r: EvalRecord) -> str:
    params = ", ".join(f"{k}={v}" for k, v in r.case.items()) or "(parameters not recorded)"
    parts = [f"<h4>case {r.case_id}: <span class='bad'>{_e(r.verdict)}</span></h4>",
             f"<p>Parameters: <code>{_e(params)}</code></p>", f"<p>{_e(r.message)}</p>"]
    if r.max_abs_err is not None or r.max_rel_err is not None:
        parts.append(f"<p>max abs err {_num(r.max_abs_err)}, max rel err {_num(r.max_rel_err)}</p>")
    parts.append(_worst_table(r.worst))
    if r.diagnostics:
        parts.append(f"<pre>{_e(chr(10).join(r.diagnostics))}</pre>")
    return "".join(parts)


def _sample_section(sample: int, recs: list[EvalRecord], files: dict[str, str] | None) -> str:
    counts = Counter(r.verdict for r in recs)
    ok = counts.get("ok", 0) == len(recs)
    head = (f"<section id='sample-{sample}'><h3>sample {sample}: <span class='{'ok' if ok else 'bad'}'>"
            f"{'correct' if ok else 'incorrect'}</span></h3><p>"
            + ", ".join(f"{_e(v)}: {n}" for v, n in sorted(counts.items())) + "</p>")
    parts = [head]
    compile_log = next((r.compile_log for r in recs if not r.compile_ok and r.compile_log), "")
    if compile_log:
        errs = first_errors(compile_log, lines=5) or "\n".join(compile_log.splitlines()[:8])
        cls = next((r.error_class for r in recs if r.error_class), None)
        parts.append(f"<h4>First compiler errors{f' ({_e(cls)})' if cls else ''}</h4><pre>{_e(errs)}</pre>")
    failing = sorted((r for r in recs if r.verdict != "ok" and r.compile_ok), key=lambda r: r.case_id)
    parts += [_case_block(r) for r in failing[:FAILING_CASES_SHOWN]]
    if len(failing) > FAILING_CASES_SHOWN:
        parts.append(f"<p>… and {len(failing) - FAILING_CASES_SHOWN} more failing cases (records.jsonl).</p>")
    if files:
        for name in sorted(files):
            text = files[name]
            clipped = text[:SOURCE_CHARS] + (f"\n… ({len(text) - SOURCE_CHARS} more characters)"
                                             if len(text) > SOURCE_CHARS else "")
            parts.append(f"<details{' open' if not ok and name.startswith('op_kernel/') else ''}>"
                         f"<summary><code>{_e(name)}</code></summary><pre>{_e(clipped)}</pre></details>")
    else:
        parts.append("<p>The candidate's source is not in this run directory.</p>")
    parts.append("</section>")
    return "".join(parts)


def render_task_page(run: str, task_id: str, recs: list[EvalRecord],
                     files: dict[tuple[str, int], dict[str, str]]) -> str:
    by_sample: dict[int, list[EvalRecord]] = defaultdict(list)
    for r in recs:
        by_sample[r.sample].append(r)
    correct = sum(all(r.verdict == "ok" for r in rs) for rs in by_sample.values())
    first = recs[0]
    nav = " ".join(f"<a href='#sample-{s}'>{s}</a>" for s in sorted(by_sample))
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{_e(task_id)} · {_e(run)}</title>"
            f"<style>{CSS}</style></head><body><p><a href='../report.html'>← report {_e(run)}</a></p>"
            f"<h1>{_e(task_id)}</h1><p>level {first.level}, category {_e(first.category)}, op "
            f"<code>{_e(first.op_name)}</code>; {correct}/{len(by_sample)} samples correct. Samples: {nav}</p>"
            + "".join(_sample_section(s, sorted(by_sample[s], key=lambda r: r.case_id), files.get((task_id, s)))
                      for s in sorted(by_sample))
            + "</body></html>")


def write_task_pages(out_dir: Path, run: str, records: Iterable[EvalRecord]) -> dict[str, str]:
    """tasks/<task>.html for every task with records; returns task_id -> relative link."""
    by_task: dict[str, list[EvalRecord]] = defaultdict(list)
    for r in records:
        by_task[r.task_id].append(r)
    if not by_task:
        return {}
    files = load_candidate_files(out_dir)
    d = out_dir / TASK_DIR
    d.mkdir(parents=True, exist_ok=True)
    links = {}
    for task_id, recs in by_task.items():
        name = page_name(task_id)
        tmp = d / f".{name}.tmp"
        tmp.write_text(render_task_page(run, task_id, recs, files), encoding="utf-8")
        tmp.replace(d / name)
        links[task_id] = f"{TASK_DIR}/{name}"
    return links
