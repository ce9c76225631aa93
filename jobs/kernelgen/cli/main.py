"""The `kernelgen` command: the root typer app. Each kind's commands live in their own module and are mounted here.

Exit codes shared by every sub-command: 0 done (kernels that fail are results, not errors), 2 invalid spec or usage,
any other non-zero an infrastructure failure.
"""

from __future__ import annotations

import importlib
import logging
import signal
import sys
import threading
from pathlib import Path
import typer
from rich.console import Console

import kernelgen

EXIT_INVALID_SPEC = 2

app = typer.Typer(
    name="kernelgen",
    help="AscendKernelGen: CoT dataset builds, KernelGen-LM training and NPUKernelBench-style evaluation.",
    no_args_is_help=True,
    add_completion=True,        # `kernelgen --install-completion` (bash, zsh, fish, PowerShell)
    pretty_exceptions_enable=False,
)
crds_app = typer.Typer(help="CustomResourceDefinitions generated from the specs.", no_args_is_help=True)
app.add_typer(crds_app, name="crds")

err_console = Console(stderr=True)
log = logging.getLogger(__name__)

# (module, command name, help): mounted when the module imports, so a kind still in progress (or whose optional
# dependencies are missing) does not break the rest of the CLI.
SUB_APPS = [
    ("kernelgen.cli.bench", "bench", "BenchRun: evaluate kernels (run, tasks, report)."),
    ("kernelgen.cli.train", "train", "TrainRun: SFT and DPO training."),
    ("kernelgen.cli.cot", "cot", "CoTBuild: build the Ascend-CoT dataset."),
]


def mount_sub_apps(target: typer.Typer, sub_apps: list[tuple[str, str, str]] = SUB_APPS) -> None:
    for module_name, name, help_text in sub_apps:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name == module_name:
                continue  # not written yet
            _mount_broken(target, name, module_name, e)
            continue
        except Exception as e:  # noqa: BLE001 - a broken sub-app must not take the other commands down
            _mount_broken(target, name, module_name, e)
            continue
        sub = getattr(module, "app", None)
        if isinstance(sub, typer.Typer):
            target.add_typer(sub, name=name, help=help_text)


def _mount_broken(target: typer.Typer, name: str, module_name: str, error: Exception) -> None:
    """A placeholder command that explains why the sub-app could not load (exit 1: infrastructure)."""
    broken = typer.Typer(help=f"(unavailable: {module_name} failed to import)")

    @broken.callback(invoke_without_command=True)
    def _explain() -> None:
        err_console.print(
            f"[red]kernelgen {name} is unavailable:[/] {module_name}: {type(error).__name__}: {error}", soft_wrap=True
        )
        raise typer.Exit(1)

    target.add_typer(broken, name=name)


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    """A pod's end (kubectl delete pod, eviction, a deleted run) is a SIGTERM: unwind as on an interrupt, so the
    stages' `finally` blocks push what already finished (records, shard files) to the store within the grace
    period, and the retried pod resumes from there instead of redoing it."""
    raise SystemExit(128 + signum)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"kernelgen {kernelgen.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version and exit."
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log debug messages."),
) -> None:
    """AscendKernelGen command line. Every job runs locally from the same YAML spec that `kubectl apply` takes."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, format="%(levelname)s %(name)s: %(message)s")


def print_spec_errors(error: Exception, source: str | None = None) -> None:
    """Print a SpecError as one line per bad field on stderr (for every `kernelgen <kind> run -f`)."""
    lines = getattr(error, "errors", None) or [str(error)]
    where = source or getattr(error, "source", None)
    for line in lines:
        err_console.print(f"{where}: {line}" if where and not line.startswith(str(where)) else line, markup=False,
                          highlight=False, soft_wrap=True)


def load_spec_or_exit(path: Path, expect: type | None = None):  # noqa: ANN201 - returns the kind's model
    """Load a spec for a CLI command; on a bad spec print one line per bad field and exit 2."""
    from kernelgen.specs import SpecError, load_spec

    try:
        return load_spec(Path(path), expect=expect)
    except SpecError as e:
        print_spec_errors(e, str(path))
        raise typer.Exit(EXIT_INVALID_SPEC) from None


RUNS_ROOT_HELP = ("Where the runs this spec references (fromCoTBuild, fromBenchRun, fromTrainRun) wrote their "
                  "outputs, <root>/<name>/run.json (default: this spec's output.uri).")


def resolve_refs_or_exit(run, runs_root: str | None = None):  # noqa: ANN001, ANN201 - the kind's model
    """The run with its references to other runs resolved against local run records; exit 2 when one is missing
    (the referenced run has not finished there). In a pod the operator has already resolved them."""
    from kernelgen.specs.refs import UnresolvedReference, references, resolve_local

    if not references(run):
        return run
    try:
        return resolve_local(run, runs_root or run.spec.output.uri)
    except UnresolvedReference as e:
        err_console.print(f"{run.kind_name} {run.metadata.name}: {e}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_INVALID_SPEC) from None


@app.command("validate")
def validate(
    file: Path = typer.Option(..., "--file", "-f", help="Spec YAML (BenchRun, TrainRun or CoTBuild)."),
    cluster: bool = typer.Option(False, "--cluster", help="Also check what a cluster needs (an output that outlives "
                                 "the pods), as the CRD and the operator do."),
) -> None:
    """Validate a spec: one line per bad field, exit code 2 when invalid."""
    spec = load_spec_or_exit(file)
    if cluster and spec.cluster_problems():
        for line in spec.cluster_problems():
            err_console.print(f"{file}: {line}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_INVALID_SPEC)
    typer.echo(f"{file}: valid {spec.kind_name} {spec.metadata.name!r}")


@crds_app.command("generate")
def crds_generate(
    out: Path = typer.Option(Path("crds"), "--out", "-o", help="Directory for <plural>.yaml."),
    check: bool = typer.Option(False, "--check", help="Only compare; exit 1 if the files differ."),
) -> None:
    """Write the CRDs of the three kinds (generated from the pydantic specs)."""
    from kernelgen.specs import crd

    if check:
        drift = crd.check(out)
        for name in drift:
            err_console.print(f"{out / name} is out of date: run kernelgen crds generate")
        raise typer.Exit(1 if drift else 0)
    for path in crd.generate(out):
        typer.echo(str(path))


mount_sub_apps(app)


def run() -> None:  # pragma: no cover - console entry point alias
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
