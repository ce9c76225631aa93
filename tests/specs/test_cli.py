"""`kernelgen validate` and `kernelgen crds generate` through the real command line."""

from __future__ import annotations

import subprocess
import sys

import yaml
from typer.testing import CliRunner

from kernelgen.cli.main import app

runner = CliRunner()


def test_validate_ok(tmp_path, bench):
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(bench))
    result = runner.invoke(app, ["validate", "-f", str(path)])
    assert result.exit_code == 0, result.output
    assert "valid BenchRun 'br1'" in result.output


def test_invalid_spec_exits_2_with_one_line_per_bad_field(tmp_path, bench):
    bench["spec"]["evaluation"]["runTimeoutSeconds"] = -5
    bench["spec"]["evaluation"]["backend"] = "gpu"
    bench["spec"]["evalShards"] = 0
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(bench))
    # A separate process: the exit code and stderr a user sees.
    proc = subprocess.run(
        [sys.executable, "-m", "kernelgen.cli.main", "validate", "-f", str(path)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 3, lines
    assert all(line.startswith(f"{path}: spec.") for line in lines)
    paths = sorted(line.split(": ")[1] for line in lines)
    assert paths == ["spec.evalShards", "spec.evaluation.backend", "spec.evaluation.runTimeoutSeconds"]


def test_missing_file_exits_2(tmp_path):
    result = runner.invoke(app, ["validate", "-f", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("kernelgen ")


def test_crds_generate_and_check(tmp_path):
    out = tmp_path / "crds"
    assert runner.invoke(app, ["crds", "generate", "--check", "-o", str(out)]).exit_code == 1
    result = runner.invoke(app, ["crds", "generate", "-o", str(out)])
    assert result.exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["benchruns.yaml", "cotbuilds.yaml", "trainruns.yaml"]
    assert runner.invoke(app, ["crds", "generate", "--check", "-o", str(out)]).exit_code == 0


def test_a_broken_sub_app_does_not_break_the_cli(tmp_path, monkeypatch):
    import typer

    from kernelgen.cli.main import mount_sub_apps

    (tmp_path / "kg_broken_sub.py").write_text("raise RuntimeError('half-written module')\n")
    (tmp_path / "kg_good_sub.py").write_text(
        "import typer\napp = typer.Typer()\n@app.command()\ndef hello():\n    print('hi')\n"
        "@app.command()\ndef other():\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    root = typer.Typer()

    @root.command()
    def validate() -> None:
        pass

    mount_sub_apps(root, [("kg_broken_sub", "broken", ""), ("kg_good_sub", "good", ""), ("kg_absent_sub", "x", "")])
    assert runner.invoke(root, ["good", "hello"]).output == "hi\n"
    result = runner.invoke(root, ["broken"])
    assert result.exit_code == 1 and "half-written module" in result.output
    assert runner.invoke(root, ["x"]).exit_code == 2  # not mounted: unknown command


def test_an_unsupported_output_scheme_is_refused_everywhere(tmp_path, bench):
    bench["spec"]["output"] = {"uri": "gs://bucket/x"}
    path = tmp_path / "gs.yaml"
    path.write_text(yaml.safe_dump(bench))
    result = runner.invoke(app, ["validate", "-f", str(path)])
    assert result.exit_code == 2
    assert "spec.output.uri: must be s3://bucket/prefix, file:///path or a path" in result.output


def test_validate_cluster_requires_an_output_that_outlives_the_pod(tmp_path, bench):
    path = tmp_path / "b.yaml"
    for output, problem in ((None, "spec.output: output.uri is required in a cluster"),
                            ({"uri": "./runs"}, "spec.output: output.uri is required in a cluster"),
                            ({"uri": "file:///results"}, "spec.output.uri: /results is not on a volume")):
        if output is None:
            bench["spec"].pop("output", None)
        else:
            bench["spec"]["output"] = output
        path.write_text(yaml.safe_dump(bench))
        assert runner.invoke(app, ["validate", "-f", str(path)]).exit_code == 0  # fine for a local run
        result = runner.invoke(app, ["validate", "--cluster", "-f", str(path)])
        assert result.exit_code == 2 and problem in result.output, result.output
    bench["spec"]["output"] = {"uri": "s3://results/bench"}
    path.write_text(yaml.safe_dump(bench))
    assert runner.invoke(app, ["validate", "--cluster", "-f", str(path)]).exit_code == 0
