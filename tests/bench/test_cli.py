from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kernelgen.cli.main import app

from .helpers import FIXTURE_TASKS, make_task

runner = CliRunner()


@pytest.mark.skipif(not FIXTURE_TASKS.is_dir(), reason=f"shared fixtures absent: {FIXTURE_TASKS}")
def test_tasks_lists_the_13_fixture_tasks():
    r = runner.invoke(app, ["bench", "tasks", "--suite", str(FIXTURE_TASKS), "--json"])
    assert r.exit_code == 0, r.output
    import json
    data = json.loads(r.stdout)
    assert len(data["tasks"]) == 13 and data["errors"] == []


def test_tasks_reports_malformed_tasks_with_exit_1(tmp_path):
    make_task(tmp_path, "Good", "good")
    bad = make_task(tmp_path, "Bad", "bad")
    (bad / "api_desc.md").unlink()
    r = runner.invoke(app, ["bench", "tasks", "--suite", str(tmp_path)])
    assert r.exit_code == 1
    assert "level1/Math/Good" in r.stdout
    assert f"{bad / 'api_desc.md'}: missing" in r.stderr.replace("\n", "")


def test_invalid_spec_exits_2_with_one_line_per_bad_field(tmp_path):
    spec = tmp_path / "bad.yaml"
    spec.write_text("""apiVersion: kernelgen.ai/v1alpha1
kind: BenchRun
metadata: {name: bad}
spec:
  candidates: {source: jsonl}
  evaluation: {runTimeoutSeconds: 0, backend: gpu}
  suite: {shapeMode: sometimes}
""")
    r = runner.invoke(app, ["bench", "run", "-f", str(spec)])
    assert r.exit_code == 2
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    joined = "\n".join(lines)
    for field in ("runTimeoutSeconds", "backend", "shapeMode"):
        assert sum(field in ln for ln in lines) == 1, joined


def test_run_without_a_backend_reports_it_plainly(tmp_path, monkeypatch):
    make_task(tmp_path / "suite", "Add", "add")
    r = runner.invoke(app, ["bench", "run", "--suite", str(tmp_path / "suite"), "--candidates", "reference",
                            "--backend", "ascend", "--output", str(tmp_path / "out"), "--name", "nb", "--no-progress"])
    assert r.exit_code == 3, r.output
    assert "no kernel backend is available" in r.stderr
    md = (tmp_path / "out" / "nb" / "report.md").read_text()
    assert "no kernel backend is available" in md and "1 candidates" in md
    assert (tmp_path / "out" / "nb" / "report.html").exists()


def test_a_report_that_is_not_final_hands_nothing_on(tmp_path, monkeypatch):
    """Exit 3 (no backend) fails the report pod, so its figures are not the run's: no termination message, no
    run.json (a run referencing this one must not take it as finished). The exit-0 path: tests/loop."""
    make_task(tmp_path / "suite", "Add", "add")
    runner.invoke(app, ["bench", "run", "--suite", str(tmp_path / "suite"), "--backend", "ascend",
                        "--output", str(tmp_path / "out"), "--name", "tm", "--no-progress"])
    term = tmp_path / "termination-log"  # not created beforehand: the report creates it
    monkeypatch.setenv("KERNELGEN_TERMINATION_LOG", str(term))
    r = runner.invoke(app, ["bench", "report", "--run-dir", str(tmp_path / "out" / "tm")])
    assert r.exit_code == 3, r.output             # still no backend: the report says so, and so does the code
    assert (tmp_path / "out" / "tm" / "summary.json").exists()
    assert not term.exists() and not (tmp_path / "out" / "tm" / "run.json").exists()


def test_prompt_command_prints_the_prompt(tmp_path):
    make_task(tmp_path, "Add", "add")
    r = runner.invoke(app, ["bench", "prompt", "Add", "--suite", str(tmp_path), "--template", "full"])
    assert r.exit_code == 0
    assert "# api_desc.md" in r.stdout and "================== op_host/add_tiling.h" in r.stdout
