"""`kernelgen train`: run a TrainRun locally or in its pod, and build DPO preference sets from BenchRun records.

The pod entrypoint the operator uses is `kernelgen train run -f <spec>`, the same code as a local run: when the
node needs several processes (NPROC_PER_NODE, or one per local accelerator) and we are not yet under torchrun,
it re-executes itself under torchrun with the operator's NNODES / NODE_RANK (JOB_COMPLETION_INDEX) /
MASTER_ADDR / MASTER_PORT.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

app = typer.Typer(help="TrainRun: SFT and DPO training.", no_args_is_help=True, pretty_exceptions_enable=False)

EXIT_INVALID = 2


def _load(file: Path, runs_root: str | None = None):  # noqa: ANN202
    from kernelgen.cli.main import load_spec_or_exit, resolve_refs_or_exit
    from kernelgen.specs import TrainRun

    return resolve_refs_or_exit(load_spec_or_exit(file, expect=TrainRun), runs_root)


@app.command("run")
def run(
    file: Path = typer.Option(..., "--file", "-f", "--spec", help="TrainRun spec YAML (--spec: as the operator passes it)."),
    workdir: Optional[Path] = typer.Option(None, help="Local scratch for trainer state (default ~/.cache/kernelgen/train/<name>)."),  # noqa: UP007
    nproc_per_node: Optional[int] = typer.Option(None, help="Processes on this node (default NPROC_PER_NODE or one per accelerator)."),  # noqa: UP007
    runs_root: Optional[str] = typer.Option(None, "--runs-root", help="Where referenced runs (fromCoTBuild, fromBenchRun, fromTrainRun) wrote: <root>/<name>/run.json (default: output.uri)."),  # noqa: UP007
) -> None:
    """Train as the spec says (locally, or as the pod entrypoint); prints the summary's headline figures."""
    from kernelgen.train import data, distributed

    tr = _load(file, runs_root)
    if not distributed.under_torchrun():
        env = dict(os.environ)
        if nproc_per_node:
            env["NPROC_PER_NODE"] = str(nproc_per_node)
        topo = distributed.topology(env)
        config = distributed.accelerate_config(env)
        if topo.world_size > 1 or config is not None:
            program = ["-m", "kernelgen.cli.main", "train", "run", "-f", str(file)]
            program += ["--workdir", str(workdir)] if workdir else []
            program += ["--runs-root", runs_root] if runs_root else []
            argv = distributed.launcher_argv(topo, program, config)
            typer.echo(f"launching {topo.world_size} processes: {' '.join(argv)}", err=True)
            os.execvpe(argv[0], argv, env)
    from kernelgen.train import runner

    try:
        summary = runner.run(tr, workdir=workdir)
    except data.DatasetError as e:
        typer.echo(f"{file}: dataset: {e}", err=True)
        raise typer.Exit(EXIT_INVALID) from None
    if distributed.is_main():
        from kernelgen.specs.report import TrainRunReport, publish

        losses = [h["loss"] for h in summary["history"] if "loss" in h]
        publish(tr, TrainRunReport(final_loss=losses[-1] if losses else None, steps=summary["globalStep"],
                                   model_uri=summary["model"], outputs={"uri": tr.output_uri()}))
        typer.echo(json.dumps({"name": summary["name"], "method": summary["method"], "steps": summary["globalStep"],
                               "resumedFrom": summary["resumedFrom"], "firstLoss": losses[0] if losses else None,
                               "lastLoss": losses[-1] if losses else None, "model": summary["model"],
                               "seconds": summary["seconds"],
                               **({"preferences": {k: summary["data"]["preferences"][k] for k in (
                                   "pairs", "pairsByNegative", "samples", "tasksWithPairs", "skippedTasks",
                                   "rejectedErrorClasses")}} if "preferences" in summary["data"] else {})}))


@app.command("preferences")
def build_preferences(
    records: List[str] = typer.Option(..., "--records", "-r", help="BenchRun output (folder/prefix with records.jsonl and candidates.jsonl); repeatable."),  # noqa: UP006
    out: str = typer.Option(..., "--out", "-o", help="Where preferences.jsonl and manifest.json go (path, file:// or s3://)."),
    strategy: str = typer.Option("green-vs-both", help="green-vs-orange | green-vs-purple | green-vs-both"),
    max_pairs_per_task: int = typer.Option(16, min=1, help="Cap on pairs per task."),
    suite: Optional[str] = typer.Option(None, help="Suite to rebuild prompts from when the candidates did not record them (default: the run's)."),  # noqa: UP007
    template: str = typer.Option("kernel-only", help="Prompt template for rebuilt prompts (kernel-only | full), unless recorded."),
) -> None:
    """Build a DPO preference set from BenchRun records (Green over Orange and/or Purple)."""
    from kernelgen.train import preferences

    try:
        pref = preferences.from_uris([r.removesuffix("/records.jsonl") for r in records], strategy=strategy,
                                     max_pairs_per_task=max_pairs_per_task, suite_uri=suite, template=template)
    except (ValueError, FileNotFoundError) as e:
        typer.echo(f"preferences: {e}", err=True)
        raise typer.Exit(EXIT_INVALID) from None
    uri = preferences.write(pref, out)
    m = pref.manifest
    typer.echo(json.dumps({"uri": uri, "pairs": m["pairs"], "pairsByNegative": m["pairsByNegative"],
                           "samples": m["samples"], "tasks": m["tasks"], "tasksWithPairs": m["tasksWithPairs"],
                           "skippedTasks": m["skippedTasks"], "rejectedErrorClasses": m["rejectedErrorClasses"]}))


@app.command("entrypoint")
def entrypoint(
    file: Path = typer.Option(Path(os.environ.get("KERNELGEN_SPEC", "/etc/kernelgen/spec.yaml")), "--file", "-f",
                              help="Spec mounted into the pod (default $KERNELGEN_SPEC)."),
) -> None:
    """Pod entrypoint for a TrainRun's Job: the same code path as `kernelgen train run -f`."""
    run(file=file, workdir=None, nproc_per_node=None, runs_root=None)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
