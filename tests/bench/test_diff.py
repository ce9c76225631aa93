"""`kernelgen bench diff`: Table 2 layout, paired bootstrap differences, flipped tasks, Markdown/HTML/JSON."""
from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from typer.testing import CliRunner

from kernelgen.bench import diff as bdiff
from kernelgen.cli.main import app

from .test_metrics import rec

runner = CliRunner()
OK, BAD, CE = "ok", "value_mismatch", "compile_error"


def _write(dir_, name, spec):
    """spec: task -> list of (verdict, speedup) per sample (one case each)."""
    d = dir_ / name
    d.mkdir(parents=True)
    rows = []
    for task, samples in spec.items():
        level = int(task[1])
        for s, (verdict, speedup) in enumerate(samples):
            rows.append(rec(task, level, s, 0, verdict, compile_ok=verdict != CE, speedup=speedup))
    (d / "records.jsonl").write_text("".join(json.dumps(asdict(r)) + "\n" for r in rows))
    # what the report stage writes; diff takes the run's k and p values from it
    (d / "summary.json").write_text(json.dumps({"run": name, "metrics": {"config": {"k": [1, 2, 10],
                                                                                 "fast_p": [1.0, 2.0]}}}))
    return d


BASE = {"l1/A": [(CE, None), (CE, None)], "l1/B": [(OK, 0.5), (BAD, None)], "l2/C": [(BAD, None), (BAD, None)]}
TUNED = {"l1/A": [(OK, 1.5), (BAD, None)], "l1/B": [(OK, 2.0), (OK, 1.0)], "l2/C": [(CE, None), (CE, None)]}


def test_diff_figures_by_hand(tmp_path):
    a = bdiff.load_run(str(_write(tmp_path, "base", BASE)))
    b = bdiff.load_run(str(_write(tmp_path, "dpo", TUNED)))
    d = bdiff.diff(a, b, samples=300)
    overall = {r["metric"]: r for r in d.scopes[0].rows}
    assert d.scopes[0].scope == "all" and d.scopes[0].tasks == 3
    # compile: base 4/6, tuned 4/6; exec: base 1/6, tuned 3/6
    assert overall["compile_rate"]["delta"] == pytest.approx(0.0)
    assert overall["exec_rate"]["a"] == pytest.approx(1 / 6) and overall["exec_rate"]["b"] == pytest.approx(3 / 6)
    # pass@1 per task: base (0 + .5 + 0)/3, tuned (.5 + 1 + 0)/3; pass@2: base 1/3, tuned 2/3; k=10 > n: absent
    assert overall["pass@1"]["delta"] == pytest.approx(1.0 / 3)
    assert overall["pass@2"]["a"] == pytest.approx(1 / 3) and overall["pass@2"]["b"] == pytest.approx(2 / 3)
    assert "pass@10" not in overall
    # fast_1: base 0/6, tuned 3/6 (1.5, 2.0, 1.0 >= 1); speedup geomean base 0.5, tuned (1.5*2*1)^(1/3)
    assert overall["fast_1"]["b"] == pytest.approx(3 / 6) and overall["fast_2"]["b"] == pytest.approx(1 / 6)
    assert overall["speedup_geomean"]["b"] == pytest.approx(3.0 ** (1 / 3))
    for row in overall.values():
        if row["ci"] is not None:
            assert row["ci"][0] <= row["delta"] + 1e-12 and row["delta"] - 1e-12 <= row["ci"][1]
    lo, hi = overall["exec_rate"]["ci"]
    assert lo < hi
    level1 = {r["metric"]: r for r in next(s for s in d.scopes if s.scope == "level 1").rows}
    assert level1["exec_rate"]["delta"] == pytest.approx(3 / 4 - 1 / 4)
    assert {(f["task_id"], f["change"]) for f in d.flipped} == {
        ("l1/A", "now correct, now compiles"), ("l2/C", "no longer compiles")}


def test_cli_prints_the_tables_and_writes_reports(tmp_path):
    a = _write(tmp_path, "base", BASE)
    b = _write(tmp_path, "sft", TUNED)
    c = _write(tmp_path, "dpo", {**TUNED, "l2/C": [(OK, 1.2), (BAD, None)]})
    r = runner.invoke(app, ["bench", "diff", str(a), str(b), str(c), "--name", "Base", "--name", "SFT",
                            "--name", "SFT+DPO", "--out", str(tmp_path / "report"), "--bootstrap", "200"])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "| Model | Level | Pass@1 CR (%) | Pass@1 ER (%) | Pass@2 CR (%) | Pass@2 ER (%) |" in out
    assert "| Base | Level 1 | 50.00 | 25.00 |" in out   # L1 pass@1: CR mean(0/2, 2/2), ER mean(0/2, 1/2)
    assert "### SFT vs Base" in out and "### SFT+DPO vs SFT" in out
    assert "| exec rate | 16.67 | 50.00 | +33.33 |" in out
    assert "| l2/C | 2 | now correct, now compiles |" in out
    html = (tmp_path / "report" / "diff.html").read_text()
    assert html.startswith("<!doctype html>") and "<table>" in html and "SFT+DPO vs SFT" in html
    data = json.loads((tmp_path / "report" / "diff.json").read_text())
    assert [x["name"] for x in data["runs"]] == ["Base", "SFT", "SFT+DPO"] and len(data["diffs"]) == 2
    bad = runner.invoke(app, ["bench", "diff", str(a), str(tmp_path / "nothing")])
    assert bad.exit_code == 2
    js = runner.invoke(app, ["bench", "diff", str(a), str(b), "--bootstrap", "0", "--json"])
    assert js.exit_code == 0, js.output
    assert [x["name"] for x in json.loads(js.stdout)["runs"]] == ["base", "sft"]
