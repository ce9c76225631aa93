"""The pod entrypoints the operator runs, on a teacher-free build (general CoT only: no model is loaded)."""
import json

import yaml
from .conftest import spec_doc
from kernelgen.cli.cot import app
from typer.testing import CliRunner


def test_generate_shards_then_merge(tmp_path, monkeypatch):
    spec = tmp_path / "cotbuild.yaml"
    doc = spec_doc(tmp_path / "out", stages=["general"], shards=2)
    spec.write_text(yaml.safe_dump(doc))
    runner = CliRunner()
    monkeypatch.setenv("JOB_COMPLETION_INDEX", "1")
    r1 = runner.invoke(app, ["generate", "--spec", str(spec)])          # shard from the Indexed Job index
    assert r1.exit_code == 0, r1.output
    assert json.loads(r1.output.strip().splitlines()[-1])["shard"] == 1
    r = runner.invoke(app, ["merge", "--spec", str(spec)])
    assert r.exit_code != 0 and "shards without output: [0]" in str(r.exception)
    r0 = runner.invoke(app, ["generate", "--spec", str(spec), "--shard", "0", "--shards", "2"])
    assert r0.exit_code == 0, r0.output
    r = runner.invoke(app, ["merge", "--spec", str(spec)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output.strip().splitlines()[-1])
    assert out["by_kind"] == {"general": 12} and out["missing_shards"] == []
    bad = runner.invoke(app, ["generate", "--spec", str(spec), "--shard", "2"])
    assert bad.exit_code == 2
