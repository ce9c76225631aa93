"""Preference pairs from BenchRun records: classes, strategies (Table 4), balance, dedup, provenance."""
from __future__ import annotations

import json
import shutil
from dataclasses import asdict
from itertools import count

import pytest
from typer.testing import CliRunner

from kernelgen.bench.model import CandidateRecord, EvalRecord
from kernelgen.train import preferences as prefs

from .helpers import DATA

REAL_RUN = DATA / "benchrun-mul"   # produced by `kernelgen bench run` on the sim backend (see its README.md)
_sha = count()


def _eval(task: str, sample: int, case: int, verdict: str) -> EvalRecord:
    compiled = verdict not in ("compile_error", "parse_error")
    return EvalRecord(run="r1", task_id=task, level=1, category="Math", op_name=task.rsplit("/", 1)[-1],
                      case_id=case, sample=sample, verdict=verdict, message="", candidate_sha256=f"c{sample}",
                      compile_ok=compiled, error_class=None if compiled else "syntax", compile_log="",
                      compile_seconds=0.1, compile_cached=False, max_abs_err=None, max_rel_err=None,
                      candidate_ms=[], baseline_ms=[], speedup=None, seed=0, backend="sim", versions={},
                      seconds=0.1, finished_at="2026-01-01T00:00:00+00:00")


def _cand(task: str, sample: int, text: str | None = None) -> CandidateRecord:
    return CandidateRecord(run="r1", task_id=task, sample=sample, origin="generate:m", files={},
                           candidate_sha256=f"c{next(_sha)}", response=text or f"{task} answer {sample}",
                           reasoning="think", meta={"messages": [{"role": "user", "content": f"write {task}"}]})


def _run(spec: dict[str, list[list[str]]]):
    """spec: task -> per sample, the verdicts of its cases."""
    records, cands = [], []
    for task, samples in spec.items():
        for s, verdicts in enumerate(samples):
            cands.append(_cand(task, s))
            records += [_eval(task, s, c, v) for c, v in enumerate(verdicts)]
    return records, cands


OK, BAD, CE, RT = "ok", "value_mismatch", "compile_error", "runtime_error"


def test_classes_follow_all_cases():
    assert prefs.classify([_eval("t", 0, 0, OK), _eval("t", 0, 1, OK)]) == prefs.GREEN
    assert prefs.classify([_eval("t", 0, 0, OK), _eval("t", 0, 1, BAD)]) == prefs.ORANGE
    assert prefs.classify([_eval("t", 0, 0, RT)]) == prefs.ORANGE           # compiled, failed to execute
    assert prefs.classify([_eval("t", 0, 0, CE)]) == prefs.PURPLE
    assert prefs.classify([_eval("t", 0, 0, "parse_error")]) == prefs.PURPLE
    assert prefs.classify([_eval("t", 0, 0, OK), _eval("t", 0, 1, "infra_error")]) is None
    assert prefs.classify([]) is None


# Task A: 2 green, 3 orange, 2 purple. Task B: 1 green, 0 orange, 4 purple. Task C: no green. Task D: 3 green, 1 orange.
RUN = {"l1/M/A": [[OK, OK], [OK, OK], [OK, BAD], [RT], [BAD, BAD], [CE], [CE]],
       "l1/M/B": [[OK], [CE], [CE], [CE], ["parse_error"]],
       "l1/M/C": [[BAD], [CE]],
       "l1/M/D": [[OK], [OK], [OK], [BAD]]}


@pytest.mark.parametrize("strategy,cap,expected", [
    ("green-vs-orange", 16, {"l1/M/A": 6, "l1/M/D": 3}),
    ("green-vs-purple", 16, {"l1/M/A": 4, "l1/M/B": 4}),
    ("green-vs-both", 16, {"l1/M/A": 10, "l1/M/B": 4, "l1/M/D": 3}),
    ("green-vs-both", 4, {"l1/M/A": 4, "l1/M/B": 4, "l1/M/D": 3}),
])
def test_pair_counts_per_strategy(strategy, cap, expected):
    records, cands = _run(RUN)
    pref = prefs.build([("mem://r1", records, cands)], strategy=strategy, max_pairs_per_task=cap)
    per_task = {t: v["pairs"] for t, v in pref.manifest["perTask"].items() if v["pairs"]}
    assert per_task == expected
    assert pref.manifest["pairs"] == len(pref.rows) == sum(expected.values())
    assert pref.manifest["samples"] == {"green": 6, "orange": 5, "purple": 7, "unjudged": 0, "incomplete": 0,
                                        "duplicates": 0}
    allowed = set(prefs.STRATEGIES[strategy])
    for row in pref.rows:
        p = row["provenance"]
        assert p["chosen"]["class"] == "green" and p["rejected"]["class"] in allowed
        assert p["chosen"]["run"] == "r1" and row["prompt"] == [{"role": "user", "content": f"write {p['task_id']}"}]
        assert row["chosen"][0]["content"].startswith("<think>\nthink\n</think>")
    keys = [(r["provenance"]["task_id"], r["provenance"]["chosen"]["sample"], r["provenance"]["rejected"]["sample"])
            for r in pref.rows]
    assert len(keys) == len(set(keys))


def test_skipped_tasks_and_the_rejected_kernels_failure_are_reported():
    records, cands = _run(RUN)
    pref = prefs.build([("mem://r1", records, cands)], strategy="green-vs-purple")
    assert pref.manifest["skippedTasks"] == {"l1/M/C": "no correct kernel", "l1/M/D": "no purple kernel"}
    assert pref.manifest["tasksWithPairs"] == 2 and pref.manifest["tasks"] == 4
    for row in pref.rows:
        rej = row["provenance"]["rejected"]
        assert rej["verdict"] in ("compile_error", "parse_error")
        if rej["verdict"] == "compile_error":
            assert rej["errorClass"] == "syntax"   # the class the records gave the compile failure
        assert "verdict" not in row["provenance"]["chosen"]
    assert pref.manifest["rejectedErrorClasses"] == {"syntax": sum(
        "errorClass" in r["provenance"]["rejected"] for r in pref.rows)}
    orange = prefs.build([("mem://r1", records, cands)], strategy="green-vs-orange")
    assert {r["provenance"]["rejected"]["verdict"] for r in orange.rows} == {"value_mismatch", "runtime_error"}
    assert orange.manifest["rejectedErrorClasses"] == {}


def test_a_correct_kernel_must_pass_every_case_its_task_ran():
    # sample 1 has a record for case 0 only (its case 1 was never evaluated): it cannot be chosen
    records, cands = _run({"t/A": [[OK, OK], [OK], [BAD, BAD]]})
    pref = prefs.build([("mem://r1", records, cands)], strategy="green-vs-orange")
    assert pref.manifest["samples"]["incomplete"] == 1 and pref.manifest["samples"]["green"] == 1
    assert [(r["provenance"]["chosen"]["sample"], r["provenance"]["rejected"]["sample"]) for r in pref.rows] == [(0, 2)]


def test_pairs_share_the_prompt():
    """A correct kernel from one prompt is never preferred to a failing one written for another prompt."""
    r1, c1 = _run({"t/A": [[OK], [BAD]]})
    r2, c2 = _run({"t/A": [[OK], [BAD]]})
    for c in c2:
        c.run, c.response = "r2", c.response + " (other template)"
        c.meta = {"messages": [{"role": "user", "content": "write t/A, full project"}]}
    for r in r2:
        r.run = "r2"
    pref = prefs.build([("mem://r1", r1, c1), ("mem://r2", r2, c2)], strategy="green-vs-orange")
    assert pref.manifest["pairs"] == 2
    for row in pref.rows:
        p = row["provenance"]
        assert p["chosen"]["run"] == p["rejected"]["run"]
        assert row["prompt"][0]["content"] == ("write t/A" if p["chosen"]["run"] == "r1" else "write t/A, full project")
    r3, c3 = _run({"t/A": [[OK], [BAD]]})
    c3[1].meta = {"messages": [{"role": "user", "content": "another prompt"}]}
    pref = prefs.build([("mem://r3", r3, c3)], strategy="green-vs-orange")
    assert pref.manifest["pairs"] == 0
    assert pref.manifest["skippedTasks"] == {"t/A": "correct and failing kernels answered different prompts"}


def test_capped_pairs_are_balanced_over_samples_and_classes():
    records, cands = _run(RUN)
    pref = prefs.build([("mem://r1", records, cands)], strategy="green-vs-both", max_pairs_per_task=4)
    a = [r["provenance"] for r in pref.rows if r["provenance"]["task_id"] == "l1/M/A"]
    assert sorted(p["rejected"]["class"] for p in a) == ["orange", "orange", "purple", "purple"]
    chosen = [p["chosen"]["sample"] for p in a]
    assert sorted(chosen) == [0, 0, 1, 1]                       # both greens used equally
    assert len({p["rejected"]["sample"] for p in a}) == 4        # no negative used twice before all are used


def test_duplicate_responses_count_once():
    records, cands = _run({"t/A": [[OK], [OK], [BAD], [BAD]]})
    cands[1].response, cands[3].response = cands[0].response, cands[2].response
    pref = prefs.build([("mem://r1", records, cands)], strategy="green-vs-orange")
    assert pref.manifest["samples"]["duplicates"] == 2 and pref.manifest["pairs"] == 1


def test_missing_prompt_is_an_error_not_a_silent_skip():
    records, cands = _run({"t/A": [[OK], [BAD]]})
    for c in cands:
        c.meta = {}
    with pytest.raises(ValueError, match="no prompt"):
        prefs.build([("mem://r1", records, cands)])


def test_round_trip_through_files(tmp_path):
    records, cands = _run(RUN)
    run_dir = tmp_path / "r1"
    run_dir.mkdir()
    (run_dir / "records.jsonl").write_text("".join(json.dumps(asdict(r)) + "\n" for r in records))
    (run_dir / "candidates.jsonl").write_text("".join(json.dumps(asdict(c)) + "\n" for c in cands))
    pref = prefs.from_uris([str(run_dir)], strategy="green-vs-orange")
    uri = prefs.write(pref, str(tmp_path / "out"))
    rows = [json.loads(line) for line in open(uri)]
    assert len(rows) == 9 and json.loads((tmp_path / "out" / "manifest.json").read_text())["pairs"] == 9


@pytest.mark.parametrize("strategy,by_negative,rejected_samples", [
    ("green-vs-orange", {"orange": 1}, {1}),
    ("green-vs-purple", {"purple": 1}, {2}),
    ("green-vs-both", {"orange": 1, "purple": 1}, {1, 2}),
])
def test_real_benchrun_records(tmp_path, strategy, by_negative, rejected_samples):
    """records/candidates written by `kernelgen bench run` (sim backend): the reference Mul kernel twice (green,
    identical: one duplicate), Mul turned into Add (orange: value mismatch), a syntax error (purple)."""
    out = tmp_path / "prefs"
    result = CliRunner().invoke(_train_app(), ["preferences", "-r", str(REAL_RUN), "-o", str(out),
                                               "--strategy", strategy])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["pairs"] == len(rejected_samples) and summary["pairsByNegative"] == by_negative
    assert summary["samples"] == {"green": 2, "orange": 1, "purple": 1, "unjudged": 0, "incomplete": 0,
                                  "duplicates": 1}
    rows = [json.loads(line) for line in (out / "preferences.jsonl").read_text().splitlines()]
    assert {r["provenance"]["rejected"]["sample"] for r in rows} == rejected_samples
    for r in rows:
        rej = r["provenance"]["rejected"]
        if rej["class"] == "purple":   # the harness's compile-error class of the rejected kernel is kept
            assert rej["verdict"] == "compile_error" and rej["errorClass"] in summary["rejectedErrorClasses"]
        else:
            assert rej["verdict"] == "value_mismatch" and "errorClass" not in rej
    assert summary["skippedTasks"] == {}
    assert all(r["provenance"]["chosen"] | {"candidate_sha256": None} ==
               {"run": "prefsrc", "sample": 0, "class": "green", "candidate_sha256": None} for r in rows)
    prompt = rows[0]["prompt"][0]["content"]           # rebuilt from the built-in suite's Mul task
    assert rows[0]["prompt"][0]["role"] == "user" and "mul" in prompt.lower() and "# api_desc.md" in prompt
    assert "op_kernel/mul.cpp" in rows[0]["chosen"][0]["content"]


def _train_app():
    from kernelgen.cli.train import app

    return app


def test_dpo_run_builds_its_pairs_from_benchrun_records(tmp_path, smol_tokenizer, cot_dataset):
    """A DPO TrainRun with preferences.recordsUri: pairs are built, written with provenance, then validated and
    measured like any dataset (the CoTBuild preference set given as dataset is used as well)."""
    from kernelgen.train import runner, settings

    from .helpers import load_run, write_spec

    tr = load_run(write_spec(tmp_path / "dpo.yaml", "dpo", {
        "method": "DPO", "model": {"uri": "smollm2"}, "dataset": {"uri": str(cot_dataset)},
        "preferences": {"recordsUri": str(REAL_RUN / "records.jsonl"), "strategy": "green-vs-orange"},
        "hyperparameters": {"maxLength": 8192}, "output": {"uri": str(tmp_path / "runs")}}))
    s = settings.resolve(tr.spec.hyperparameters, method="DPO", lora=True)
    rows, info = runner.load_training_rows(tr, s, smol_tokenizer, tr.output_uri())
    assert info["preferences"]["pairs"] == 1 and info["preferences"]["strategy"] == "green-vs-orange"
    assert info["report"]["format"] == "preference" and info["report"]["kept"] == 1 + 12
    written = tmp_path / "runs" / "dpo" / "preferences"
    assert json.loads((written / "manifest.json").read_text())["runs"] == ["prefsrc"]
    assert len((written / "preferences.jsonl").read_text().splitlines()) == 1
    assert info["report"]["lengths"]["max"] > 1000   # the rebuilt suite prompt plus a whole kernel project
