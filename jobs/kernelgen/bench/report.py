"""Reports: summary.json, report.md (tables), report.html (matplotlib plots as data URIs) and its per-task pages."""
from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import Any, Iterable

from .metrics import pass_at_k
from .model import EvalRecord
from .report_tasks import TASK_DIR, write_task_pages


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, fmt: str = ".3f") -> str:
    return "—" if x is None else format(x, fmt)


def _ci(m: dict, key: str) -> str:
    ci = m.get("ci", {}).get(key)
    return f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""


def write_summary(out_dir: Path, summary: dict) -> Path:
    path = Path(out_dir) / "summary.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n")
    tmp.replace(path)
    return path


def _rows_md(metrics: dict) -> list[str]:
    ks = metrics["config"]["k"]
    ps = [f"{p:g}" for p in metrics["config"].get("fast_p", [])]
    head = ["scope", "tasks", "candidates", "compile rate", "exec rate", *[f"pass@{k}" for k in ks],
            *[f"fast_{p}" for p in ps], "speedup (geomean)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    scopes = [("all", metrics["overall"])] + [(f"level {k}", v) for k, v in sorted(metrics["by_level"].items())]
    for name, m in scopes:
        pk = m.get("pass_at_k", {})
        cells = [name, str(m["tasks"]), str(m["candidates"]), _pct(m["compile_rate"]) + _ci(m, "compile_rate"),
                 _pct(m["exec_rate"]) + _ci(m, "exec_rate"),
                 *[(_pct(pk[str(k)]) + _ci(m, f"pass@{k}")) if str(k) in pk else "n<k" for k in ks],
                 *[_pct((m.get("fast_p") or {}).get(p)) for p in ps],
                 _num(m.get("speedup_geomean"))]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render_markdown(summary: dict) -> str:
    m = summary["metrics"]
    out = [f"# BenchRun `{summary['run']}`", ""]
    for note in summary.get("notes", []):
        out.append(f"> **Note:** {note}")
    if summary.get("notes"):
        out.append("")
    planned = summary.get("planned", {})
    out += [f"- Suite: `{summary.get('suite', '')}` ({planned.get('suite_tasks', '?')} tasks selected, "
            f"{summary.get('tasks', 0)} with records; shape mode {summary.get('shape_mode', 'static')})",
            f"- Planned: {planned.get('candidates', '?')} candidates, {planned.get('units', '?')} "
            f"(task, case, sample) units",
            f"- Candidates: {summary.get('candidate_source', '')}; backend: `{summary.get('backend', '')}` "
            f"{json.dumps(summary.get('versions', {}), sort_keys=True)}",
            f"- Records: {m['records']}; infrastructure failures (not scored): {len(summary.get('infra_failures', []))}",
            f"- NPUKernelBench level-weighted score (0.2/0.3/0.5): {m['nkb']['score']:.4f}", "",
            "## Rates", "", *_rows_md(m), "",
            "Brackets: bootstrap confidence intervals over tasks "
            f"({m['config']['bootstrap_samples']} resamples, {int(100 * m['config']['confidence'])}%). "
            "fast_p (KernelBench): candidates correct and at least p× faster than the baseline; — where correct "
            "candidates were not timed.", "",
            "## Verdicts", "", "| verdict | candidates | records |", "|---|---|---|"]
    verdicts = sorted(set(m["verdicts"]["candidates"]) | set(m["verdicts"]["records"]))
    out += [f"| {v} | {m['verdicts']['candidates'].get(v, 0)} | {m['verdicts']['records'].get(v, 0)} |"
            for v in verdicts]
    if m.get("by_dtype"):
        out += ["", "## Cases per dtype", "", "| dtype | cases | ok | pass rate |", "|---|---|---|---|"]
        out += [f"| {k} | {v['records']} | {v['ok']} | {_pct(v['pass_rate'])} |" for k, v in m["by_dtype"].items()]
    out += ["", "## Compile-error classes", ""]
    if m["compile_error_classes"]:
        out += ["| class | candidates |", "|---|---|"]
        out += [f"| {k} | {v} |" for k, v in m["compile_error_classes"].items()]
    else:
        out.append("No compile errors.")
    out += ["", "## Tasks", "", "| task | level | n | correct | compiled | pass@1 | verdicts |", "|---|---|---|---|---|---|---|"]
    for t in m["per_task"]:
        out.append(f"| {t['task_id']} | {t['level']} | {t['n']} | {t['correct']} | {t['compiled']} | "
                   f"{_pct(t['pass_at_k'].get('1'))} | "
                   f"{', '.join(f'{k}: {v}' for k, v in sorted(t['verdicts'].items()))} |")
    if summary.get("infra_failures"):
        out += ["", "## Infrastructure failures (retried on resume)", ""]
        out += [f"- `{f['task_id']}` sample {f['sample']}: {f['message'].splitlines()[0][:300]}"
                for f in summary["infra_failures"][:50]]
    return "\n".join(out) + "\n"


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _plots(summary: dict) -> list[tuple[str, str]]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = summary["metrics"]
    plots: list[tuple[str, str]] = []
    tasks = [t for t in m["per_task"] if t["n"] > 0]
    if tasks:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        scopes = [("all", tasks)] + [(f"level {lvl}", [t for t in tasks if str(t["level"]) == lvl])
                                     for lvl in sorted(m["by_level"])]
        for name, ts in scopes:
            if not ts:
                continue
            n_min = min(t["n"] for t in ts)
            ks = list(range(1, n_min + 1))
            ax.plot(ks, [sum(pass_at_k(t["n"], t["correct"], k) for t in ts) / len(ts) for k in ks],
                    marker="o" if n_min < 20 else None, label=name)
        if max(t["n"] for t in tasks) > 10:
            ax.set_xscale("log")
        else:
            from matplotlib.ticker import MaxNLocator
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("k (samples)"), ax.set_ylabel("pass@k"), ax.set_ylim(0, 1.02)
        ax.set_title("pass@k (unbiased estimator)"), ax.grid(alpha=.3), ax.legend()
        plots.append(("pass@k curves", _png(fig)))
        plt.close(fig)
    if m["by_level"]:
        fig, ax = plt.subplots(figsize=(6, 3.5))
        lv = sorted(m["by_level"])
        x = range(len(lv))
        ax.bar([i - 0.2 for i in x], [m["by_level"][k]["compile_rate"] or 0 for k in lv], 0.4, label="compile rate")
        ax.bar([i + 0.2 for i in x], [m["by_level"][k]["exec_rate"] or 0 for k in lv], 0.4, label="exec rate")
        ax.set_xticks(list(x), [f"level {k}" for k in lv]), ax.set_ylim(0, 1.02), ax.legend()
        ax.set_title("Rates per level")
        plots.append(("rates per level", _png(fig)))
        plt.close(fig)
    for title, data in (("verdicts (candidates)", m["verdicts"]["candidates"]),
                        ("compile-error classes", m["compile_error_classes"])):
        if not data:
            continue
        fig, ax = plt.subplots(figsize=(6, 0.4 * len(data) + 1.2))
        keys = sorted(data, key=lambda k: data[k])
        ax.barh(keys, [data[k] for k in keys], color="#4c72b0")
        ax.set_title(title), ax.set_xlabel("count")
        plots.append((title, _png(fig)))
        plt.close(fig)
    return plots


_CSS = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}"
        "th{background:#f3f3f3}.note{background:#fff4e5;border-left:4px solid #f0a020;padding:.5em 1em}"
        "img{max-width:100%}")


def _md_table_to_html(lines: list[str]) -> str:
    rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in lines if not set(ln) <= set("|-")]
    head, body = rows[0], rows[1:]
    return ("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr>" +
            "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in body) + "</table>")


def _tasks_table(per_task: list[dict], links: dict[str, str]) -> str:
    """Tasks with a link to each one's page (tasks/<task>.html) where it was written."""
    rows = []
    for t in per_task:
        name = html.escape(t["task_id"])
        cell = f"<a href='{html.escape(links[t['task_id']])}'>{name}</a>" if t["task_id"] in links else name
        verdicts = html.escape(", ".join(f"{k}: {v}" for k, v in sorted(t["verdicts"].items())))
        rows.append(f"<tr><td>{cell}</td><td>{t['level']}</td><td>{t['n']}</td><td>{t['correct']}</td>"
                    f"<td>{verdicts}</td></tr>")
    return ("<table><tr><th>task</th><th>level</th><th>n</th><th>correct</th><th>verdicts</th></tr>"
            + "".join(rows) + "</table>")


def render_html(summary: dict, task_links: dict[str, str] | None = None) -> str:
    m = summary["metrics"]
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>BenchRun {html.escape(summary['run'])}</title>"
             f"<style>{_CSS}</style></head><body><h1>BenchRun <code>{html.escape(summary['run'])}</code></h1>"]
    parts += [f"<p class='note'>{html.escape(n)}</p>" for n in summary.get("notes", [])]
    parts.append(f"<p>Suite <code>{html.escape(str(summary.get('suite', '')))}</code>, {summary.get('tasks', 0)} tasks; "
                 f"backend <code>{html.escape(str(summary.get('backend', '')))}</code>; {m['records']} records; "
                 f"NPUKernelBench weighted score {m['nkb']['score']:.4f}.</p>")
    parts.append("<h2>Rates</h2>" + _md_table_to_html(_rows_md(m)))
    try:
        for title, uri in _plots(summary):
            parts.append(f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' src='{uri}'>")
    except ImportError as e:  # matplotlib is in the bench extra; say so instead of failing the report
        parts.append(f"<p class='note'>Plots unavailable: {html.escape(str(e))}</p>")
    if m["per_task"]:
        parts.append("<h2>Tasks</h2>" + _tasks_table(m["per_task"], task_links or {}))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_reports(out_dir: Path, summary: dict[str, Any],
                  records: Iterable[EvalRecord] = ()) -> dict[str, Path]:
    """summary.json, report.md, report.html and, from `records`, a page per task under tasks/."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"summary": write_summary(out_dir, summary)}
    links = write_task_pages(out_dir, summary["run"], records)
    if links:
        paths[TASK_DIR] = out_dir / TASK_DIR
    for name, text in (("report.md", render_markdown(summary)), ("report.html", render_html(summary, links))):
        p = out_dir / name
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(p)
        paths[name] = p
    return paths
