"""`kernelgen bench ...`: run a BenchRun locally, list/validate suites, build reports, and the stage entrypoints
the operator's pods call (`evaluate --spec F --shard i --shards N`, `report --spec F`).

Exit codes: 0 done (kernels that fail are results); 1 infrastructure failure (a rerun resumes); 2 invalid spec
or usage (one line per bad field); 3 no kernel backend available here (the report says so).
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from kernelgen.specs.backends import BACKENDS

from .progress import progress_bar

app = typer.Typer(help="BenchRun: evaluate kernels (run, tasks, report).", no_args_is_help=True)
console = Console()
err = Console(stderr=True)


def _load(path: Path, runs_root: Optional[str] = None) -> Any:
    from kernelgen.cli.main import load_spec_or_exit, resolve_refs_or_exit
    from kernelgen.specs import BenchRun
    return resolve_refs_or_exit(load_spec_or_exit(path, expect=BenchRun), runs_root)


def _spec_from_flags(name: str, suite: str, candidates: str, candidates_uri: Optional[str], backend: str,
                     output: str, levels: list[int], categories: list[str], names: list[str], limit: Optional[int],
                     shape_mode: str, max_cases: Optional[int], timing: bool, workers: Optional[int], seed: Optional[int]) -> Any:
    from kernelgen.cli.main import EXIT_INVALID_SPEC, print_spec_errors
    from kernelgen.specs import SpecError, load_spec
    doc = {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name},
           "spec": {"suite": {"uri": suite, "levels": levels or [1, 2, 3], "categories": categories, "names": names,
                              "limit": limit, "shapeMode": shape_mode, "maxCases": max_cases},
                    "candidates": {"source": candidates, "uri": candidates_uri},
                    "evaluation": {"backend": backend, "timing": timing, "workers": workers, "seed": seed},
                    "output": {"uri": output}}}
    try:
        return load_spec(doc)
    except SpecError as e:
        print_spec_errors(e, "flags")
        raise typer.Exit(EXIT_INVALID_SPEC) from None


class _RichProgress:
    """rich progress bars with ETA behind the harness's StageHooks."""

    def __init__(self, enabled: bool = True):
        self.bar = progress_bar(enabled)
        self.ids: dict[str, Any] = {}

    def hooks(self) -> Any:
        from kernelgen.bench.hooks import StageHooks
        return StageHooks(start=self.start, advance=self.advance, message=lambda t: self.bar.console.print(t))

    def start(self, stage: str, total: int) -> None:
        self.ids[stage] = self.bar.add_task(stage, total=total)

    def advance(self, stage: str, n: int) -> None:
        if stage in self.ids:
            self.bar.advance(self.ids[stage], n)


JSON_HELP = "Print summary.json to stdout instead of the table (everything else goes to stderr)."


def _finish(result: Any, *, quiet: bool = False, as_json: bool = False) -> None:
    for m in result.messages:
        err.print(m, markup=False, highlight=False, soft_wrap=True)
    if as_json:
        typer.echo(json.dumps(result.summary or {}, sort_keys=True, default=str))
    elif result.summary and not quiet:
        _print_summary(result.summary)
    for name, p in result.report_paths.items():
        (err if as_json else console).print(f"{name}: {p}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(result.exit_code)


def _print_summary(summary: dict) -> None:
    m = summary["metrics"]
    for note in summary.get("notes", []):
        err.print(f"[yellow]note:[/] {note}", highlight=False, soft_wrap=True)
    t = Table(title=f"BenchRun {summary['run']}")
    ks = [str(k) for k in m["config"]["k"]]
    ps = [f"{p:g}" for p in m["config"].get("fast_p", [])]
    for col in ("scope", "tasks", "cands", "compile", "exec", *[f"pass@{k}" for k in ks], *[f"fast_{p}" for p in ps],
                "speedup"):
        t.add_column(col)
    fmt = lambda x: "—" if x is None else f"{100 * x:.1f}%"  # noqa: E731
    for name, s in [("all", m["overall"])] + [(f"L{k}", v) for k, v in sorted(m["by_level"].items())]:
        pk = s.get("pass_at_k", {})
        t.add_row(name, str(s["tasks"]), str(s["candidates"]), fmt(s["compile_rate"]), fmt(s["exec_rate"]),
                  *[fmt(pk.get(k)) if k in pk else "n<k" for k in ks],
                  *[fmt((s.get("fast_p") or {}).get(p)) for p in ps],
                  "—" if s.get("speedup_geomean") is None else f"{s['speedup_geomean']:.3f}")
    console.print(t)
    console.print(f"verdicts: {json.dumps(m['verdicts']['candidates'], sort_keys=True)}   "
                  f"NPUKernelBench score: {m['nkb']['score']:.4f}", highlight=False)


@app.command("run")
def run_cmd(
    file: Optional[Path] = typer.Option(None, "--file", "-f", help="BenchRun spec YAML."),
    name: str = typer.Option("local", "--name", help="Run name (without -f)."),
    suite: str = typer.Option("builtin", "--suite", help="'builtin' or a tasks/ directory (without -f)."),
    candidates: str = typer.Option("reference", "--candidates", help="reference | jsonl | directory | generate."),
    candidates_uri: Optional[str] = typer.Option(None, "--candidates-uri", help="JSONL file or directory."),
    backend: str = typer.Option("sim", "--backend", help=" | ".join(BACKENDS) + "."),
    output: str = typer.Option("./runs", "--output", "-o", help="Artifacts root (path or s3://)."),
    level: list[int] = typer.Option([], "--level", help="Only this level (repeatable)."),
    category: list[str] = typer.Option([], "--category", help="Only this category (repeatable)."),
    task: list[str] = typer.Option([], "--task", help="Only this task/op name (repeatable)."),
    limit: Optional[int] = typer.Option(None, "--limit", help="At most this many tasks."),
    shape_mode: str = typer.Option("static", "--shape-mode", help="static | dynamic."),
    max_cases: Optional[int] = typer.Option(None, "--max-cases", help="At most this many cases per task."),
    timing: bool = typer.Option(False, "--timing/--no-timing", help="Time candidates against the reference."),
    workers: Optional[int] = typer.Option(None, "--workers", help="Parallel candidates."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Input seed (default: a fresh one per run, recorded "
                                                              "in seed.json; set it to reproduce a run)."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bars."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
    dry_run: bool = typer.Option(False, "--dry-run", help="ascend backend: print the exact command sequence per "
                                 "task (build, checks, run environment) and run nothing."),
    runs_root: Optional[str] = typer.Option(None, "--runs-root", help="Where referenced runs (generator.model."
                                            "fromTrainRun) wrote: <root>/<name>/run.json (default: output.uri)."),
) -> None:
    """Run a BenchRun locally: candidates -> evaluate -> report (resumes a killed run)."""
    from kernelgen.bench.run import run
    from kernelgen.bench.rundir import RunError
    spec = _load(file, runs_root) if file else _spec_from_flags(name, suite, candidates, candidates_uri, backend, output, level,
                                                     category, task, limit, shape_mode, max_cases, timing, workers,
                                                     seed)
    if dry_run:
        printer = BACKENDS[spec.spec.evaluation.backend].dry_run
        if printer is None:
            with_dry_run = ", ".join(b.name for b in BACKENDS.values() if b.dry_run)
            err.print(f"--dry-run prints a backend's command sequence: use it with --backend {with_dry_run}")
            raise typer.Exit(2)
        module, function = printer.split(":")
        raise typer.Exit(getattr(importlib.import_module(module), function)(spec, out=typer.echo))
    ui = _RichProgress(enabled=not no_progress)
    try:
        with ui.bar:
            result = run(spec, progress=ui.hooks())
    except RunError as e:
        err.print(f"error: {e}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    _publish(spec, result)
    _finish(result, as_json=as_json)


@app.command("generate")
def generate_cmd(
    spec_file: Path = typer.Option(..., "--spec", "-f", help="BenchRun spec YAML."),
    shard: int = typer.Option(0, "--shard", help="This shard's index (0-based)."),
    shards: int = typer.Option(1, "--shards", help="Number of generate shards (tasks split by hash)."),
    no_progress: bool = typer.Option(False, "--no-progress"),
) -> None:
    """Stage entrypoint: sample candidates with the spec's generator into candidates.jsonl (resumable)."""
    from kernelgen.bench.run import stage_generate
    from kernelgen.bench.rundir import RunError
    spec = _load(spec_file)
    if spec.spec.candidates.source != "generate":
        err.print(f"candidates.source is {spec.spec.candidates.source!r}: nothing to generate")
        raise typer.Exit(0)
    if not 0 <= shard < shards:
        err.print(f"--shard: must be within 0..{shards - 1} (got {shard})")
        raise typer.Exit(2)
    ui = _RichProgress(enabled=not no_progress)
    try:
        with ui.bar:
            res = stage_generate(spec, None, None, ui.hooks(), shard=shard, shards=shards)
    except RunError as e:
        err.print(f"error: {e}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    console.print(f"candidates: {getattr(res, 'out_path', '')}", markup=False, highlight=False)


@app.command("evaluate")
def evaluate_cmd(
    spec_file: Path = typer.Option(..., "--spec", "-f", help="BenchRun spec YAML."),
    shard: int = typer.Option(0, "--shard", help="This shard's index (0-based)."),
    shards: Optional[int] = typer.Option(None, "--shards", help="Number of shards (default: spec.evalShards)."),
    no_progress: bool = typer.Option(False, "--no-progress"),
) -> None:
    """Stage entrypoint: evaluate one shard of the candidates (records appended, resumable)."""
    from kernelgen.bench.run import stage_evaluate
    from kernelgen.bench.rundir import RunError
    spec = _load(spec_file)
    n = shards or spec.spec.eval_shards
    if not 0 <= shard < n:
        err.print(f"--shard: must be within 0..{n - 1} (got {shard})")
        raise typer.Exit(2)
    ui = _RichProgress(enabled=not no_progress)
    try:
        with ui.bar:
            result = stage_evaluate(spec, shard=shard, shards=n, progress=ui.hooks())
    except RunError as e:
        err.print(f"error: {e}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    console.print(f"shard {shard}/{n}: evaluated {result.outcome.evaluated if result.outcome else 0}, "
                  f"resumed past {result.outcome.skipped if result.outcome else 0}; records under {result.out_dir}",
                  markup=False, highlight=False)
    _finish(result, quiet=True)


@app.command("report")
def report_cmd(
    spec_file: Optional[Path] = typer.Option(None, "--spec", "-f", help="BenchRun spec YAML."),
    run_dir: Optional[Path] = typer.Option(None, "--run-dir", help="A local run directory (without --spec)."),
    as_json: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Stage entrypoint and local command: recompute metrics and write summary.json, report.md, report.html."""
    from kernelgen.bench.run import stage_report
    if spec_file is None and run_dir is None:
        err.print("give --spec FILE or --run-dir DIR")
        raise typer.Exit(2)
    if spec_file is not None:
        spec = _load(spec_file)
    else:
        spec = _spec_for_dir(run_dir)
    result = stage_report(spec)
    _publish(spec, result)
    _finish(result, as_json=as_json)


def _publish(spec: Any, result: Any) -> None:
    """The headline results to the operator (termination message) and to run.json (kernelgen.specs.report)."""
    from kernelgen.specs.report import BenchRunReport, publish
    if not result.summary or result.exit_code != 0:   # a failed stage is retried; its figures are not final
        return
    publish(spec, BenchRunReport.model_validate({"results": result.summary.get("results", {}),
                                                 "outputs": result.summary["outputs"]}))


def _spec_for_dir(run_dir: Path) -> Any:
    """The spec a local run directory was made with (its spec.json), pointed at that directory."""
    from kernelgen.specs import load_spec
    run_dir = run_dir.resolve()
    if not run_dir.is_dir():
        err.print(f"--run-dir: {run_dir} is not a directory")
        raise typer.Exit(2)
    saved = run_dir / "spec.json"
    if saved.is_file():
        doc = json.loads(saved.read_text())
        doc["metadata"]["name"] = run_dir.name
        doc["spec"]["output"] = {"uri": str(run_dir.parent)}
        return load_spec(doc)
    return load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": run_dir.name},
                      "spec": {"candidates": {"source": "reference"}, "output": {"uri": str(run_dir.parent)}}})


@app.command("diff")
def diff_cmd(
    runs: list[str] = typer.Argument(..., help="BenchRun outputs (directories or s3:// prefixes), oldest first, e.g. "
                                     "base SFT SFT+DPO; each is compared with the one before it."),
    name: list[str] = typer.Option([], "--name", help="Display names, one per run (default: the run names)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Also write diff.md, diff.html and diff.json here."),
    bootstrap: int = typer.Option(1000, "--bootstrap", min=0, help="Bootstrap resamples (0: no intervals)."),
    confidence: float = typer.Option(0.95, "--confidence", min=0.5, max=0.999, help="Confidence level."),
    as_json: bool = typer.Option(False, "--json", help="Print diff.json's content instead of the tables."),
) -> None:
    """Compare BenchRuns: the paper's Table 2 layout, then per level and overall compile rate, exec rate, pass@k,
    fast_p and speedup of each run against the one before it, with paired bootstrap CIs and the flipped tasks."""
    from kernelgen.bench import diff as bdiff
    from kernelgen.storage import StoreError
    if len(runs) < 2:
        err.print("give at least two runs")
        raise typer.Exit(2)
    if name and len(name) != len(runs):
        err.print(f"--name: give one per run ({len(runs)}), not {len(name)}")
        raise typer.Exit(2)
    try:
        loaded = [bdiff.load_run(u, name[i] if name else None) for i, u in enumerate(runs)]
    except (FileNotFoundError, OSError, ValueError, StoreError) as e:
        err.print(f"error: {e}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    diffs = [bdiff.diff(a, b, samples=bootstrap, confidence=confidence) for a, b in zip(loaded, loaded[1:])]
    text = bdiff.render_markdown(loaded, diffs)
    if as_json:
        typer.echo(json.dumps(bdiff.to_json(loaded, diffs), indent=2))
    else:
        typer.echo(text, nl=False)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "diff.md").write_text(text, encoding="utf-8")
        (out / "diff.html").write_text(bdiff.render_html(loaded, diffs), encoding="utf-8")
        (out / "diff.json").write_text(json.dumps(bdiff.to_json(loaded, diffs), indent=2), encoding="utf-8")
        err.print(f"written: {out / 'diff.md'}, {out / 'diff.html'}, {out / 'diff.json'}")


@app.command("tasks")
def tasks_cmd(
    suite: str = typer.Option("builtin", "--suite", help="'builtin' or a tasks/ directory."),
    level: list[int] = typer.Option([], "--level"),
    category: list[str] = typer.Option([], "--category"),
    task: list[str] = typer.Option([], "--task"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """List and validate a suite; malformed tasks are listed with the file and problem (exit 1)."""
    from kernelgen.bench.tasks import load_suite
    s = load_suite(suite, levels=level, categories=category, names=task)
    if as_json:
        typer.echo(json.dumps({"suite": s.name, "root": str(s.root), "tasks": [
            {"task_id": t.task_id, "kernel": t.kernel_name, "cases": len(t.cases), "answer": t.answer_dir is not None,
             "columns": list(t.cases[0].raw or t.cases[0].values)} for t in s.tasks],
            "errors": [str(e) for e in s.errors]}, indent=2))
    else:
        t = Table(title=f"{s.name}: {len(s.tasks)} tasks ({s.root})")
        t.add_column("task", overflow="fold", min_width=max((len(x.task_id) for x in s.tasks), default=4))
        for col in ("kernel", "cases", "answer", "columns"):
            t.add_column(col, overflow="fold")
        for x in s.tasks:
            t.add_row(x.task_id, x.kernel_name, str(len(x.cases)), "yes" if x.answer_dir else "no",
                      ";".join(x.cases[0].raw or x.cases[0].values))
        console.print(t)
        for e in s.errors:
            err.print(f"invalid task: {e}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(1 if s.errors else 0)


@app.command("prompt")
def prompt_cmd(
    task: str = typer.Argument(..., help="Task id or op name."),
    suite: str = typer.Option("builtin", "--suite"),
    template: str = typer.Option("kernel-only", "--template", help="kernel-only | full."),
    shape_mode: str = typer.Option("static", "--shape-mode"),
) -> None:
    """Print the generation prompt for one task."""
    from kernelgen.bench.prompts import build_prompt
    from kernelgen.bench.tasks import load_suite
    s = load_suite(suite, names=[task])
    hit = [t for t in s.tasks] or [t for t in load_suite(suite).tasks if t.task_id.lower() == task.lower()]
    if not hit:
        err.print(f"no task {task!r} in {s.root}")
        raise typer.Exit(2)
    typer.echo(build_prompt(hit[0], template=template, shape_mode=shape_mode), nl=False)
