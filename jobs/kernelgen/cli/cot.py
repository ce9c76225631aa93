"""`kernelgen cot`: build a CoTBuild dataset locally (`run`), or as the operator's pods (`generate`, `merge`).

`run` builds one shard and merges it, in one process; killed and restarted, it asks the teacher nothing it
already answered (the answers are cached in the output store by prompt hash). The operator runs `generate` as
an Indexed Job (one shard per index; JOB_COMPLETION_INDEX is the default shard) and then `merge` once.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import typer

app = typer.Typer(help="CoTBuild: build the Ascend-CoT dataset.", no_args_is_help=True, pretty_exceptions_enable=False)


def _load(file: Path):
    from kernelgen.cli.main import load_spec_or_exit
    from kernelgen.specs import CoTBuild

    return load_spec_or_exit(file, expect=CoTBuild)


def _options(lenient: bool):
    from kernelgen.cot.context import Options

    return Options(lenient=lenient)


def _report(res, summary: dict) -> None:
    """The build's figures to the operator (termination message) and to run.json (kernelgen.specs.report)."""
    from kernelgen.specs.report import CoTBuildReport, publish

    publish(res, CoTBuildReport(records=summary["records"], dropped=summary["dropped"], outputs=summary["outputs"]))


LENIENT_HELP = ("Keep truncated teacher answers and answers without <think> (smoke builds with a tiny teacher and "
                "small maxTokens); flagged in the stats, never the default.")


class _TeacherBar:
    """One rich bar over the teacher's generations, with ETA; its total grows as stages send prompts."""

    def __init__(self, enabled: bool):
        from .progress import progress_bar
        self.bar = progress_bar(enabled)
        self.task = self.bar.add_task("teacher", total=0)

    def __call__(self, stage: str, answered: int, asked: int) -> None:
        total = self.bar.tasks[0].total or 0
        self.bar.update(self.task, description=f"teacher answers ({stage})", total=total + asked, advance=answered)


@app.command("run")
def run(
    file: Path = typer.Option(..., "--file", "-f", help="CoTBuild spec YAML."),
    lenient: bool = typer.Option(False, "--lenient", help=LENIENT_HELP),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Build the whole dataset in this process; prints the record counts per kind and the drops per stage."""
    from kernelgen.cot import pipeline

    res = _load(file)
    ui = _TeacherBar(enabled=not no_progress)
    with ui.bar:
        summary = pipeline.run(res, _options(lenient), progress=ui)
    _report(res, summary)
    typer.echo(json.dumps({"name": summary["name"], "records": summary["records"], "by_kind": summary["by_kind"],
                           "teacher": summary["teacher"],
                           "dropped": {k: v["dropped"] for k, v in summary["stages"].items()}}, ensure_ascii=False))


@app.command("generate")
def generate(
    spec: Path = typer.Option(..., "--spec", "-f", help="CoTBuild spec YAML."),
    shard: int | None = typer.Option(None, help="This shard's index (default $JOB_COMPLETION_INDEX or 0)."),
    shards: int | None = typer.Option(None, help="Number of shards (default spec.shards)."),
    lenient: bool = typer.Option(False, "--lenient", help=LENIENT_HELP),
) -> None:
    """Pod entrypoint: build one shard's records (resumable)."""
    from kernelgen.cot import pipeline

    res = _load(spec)
    n = shards or res.spec.shards
    i = shard if shard is not None else int(os.environ.get("JOB_COMPLETION_INDEX", "0"))
    if not 0 <= i < n:
        typer.echo(f"--shard {i} out of range for {n} shards", err=True)
        raise typer.Exit(2)
    stats = pipeline.build_shard(res, i, n, _options(lenient))
    typer.echo(json.dumps({"shard": i, "shards": n, "stages": {k: v.to_json() for k, v in stats.items()}},
                          ensure_ascii=False))


@app.command("merge")
def merge(
    spec: Path = typer.Option(..., "--spec", "-f", help="CoTBuild spec YAML."),
    shards: int | None = typer.Option(None, help="Number of shards (default spec.shards)."),
) -> None:
    """Pod entrypoint: merge the shards, deduplicate, decontaminate, export, write the manifest."""
    from kernelgen.cot import pipeline

    res = _load(spec)
    summary = pipeline.merge(res, shards=shards)
    _report(res, summary)
    typer.echo(json.dumps({"records": summary["records"], "by_kind": summary["by_kind"],
                           "missing_shards": summary["missing_shards"]}, ensure_ascii=False))
