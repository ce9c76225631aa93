"""Seeded-bug suite (tests/sim/mutants.py): every mutant of a reference kernel gets its expected verdict; none
passes. Mutants are built and run once per session, two at a time, and each gets its own test id."""
from __future__ import annotations

import concurrent.futures as cf

import pytest

from kernelgen.bench.model import Verdict

from .conftest import BUILTIN_TASKS, DATA_TASKS, DEV_TASKS, FIXTURE_TASKS, answer_files, load
from .mutants import MUTANTS, Mutant


def _root(m: Mutant):
    return {"fixture": FIXTURE_TASKS, "dev": DEV_TASKS, "builtin": BUILTIN_TASKS, "data": DATA_TASKS}[m.suite]


def _apply(m: Mutant, files: dict[str, str]) -> dict[str, str]:
    text = files[m.file]
    n = text.count(m.old)
    assert n >= 1, f"mutant {m.id}: anchor not found in {m.task}/{m.file}; update tests/sim/mutants.py"
    files = dict(files)
    files[m.file] = text.replace(m.old, m.new) if m.count == 0 else text.replace(m.old, m.new, m.count)
    return files


def _outcome(runner, m: Mutant) -> dict:
    if not _root(m).is_dir():
        return {"skip": f"{_root(m)} not found (../shared absent)"}
    task = load(_root(m) / m.task)
    res, rt = runner.build(task, _apply(m, answer_files(task)), tag=f"mutant-{m.id}")
    if not res.ok:
        return {"verdict": res.verdict or Verdict.COMPILE_ERROR, "class": res.error_class, "message": res.log[-1500:]}
    results = runner.run(task, rt, list(m.cases))
    for cid in m.cases:
        r = results[cid]
        if r.verdict != Verdict.OK:
            return {"verdict": r.verdict, "class": None, "message": r.message, "case": cid}
    return {"verdict": Verdict.OK, "class": None, "message": "all cases passed"}


@pytest.fixture(scope="session")
def mutant_outcomes(runner):
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        futures = {m.id: ex.submit(_outcome, runner, m) for m in MUTANTS}
        return {k: f.result() for k, f in futures.items()}


def test_suite_is_large_enough():
    assert len(MUTANTS) >= 40
    assert {m.task.split("/")[0] for m in MUTANTS} == {"level1", "level2", "level3"}
    assert len({m.id for m in MUTANTS}) == len(MUTANTS)


@pytest.mark.slow
@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.id)
def test_mutant_gets_expected_verdict(mutant_outcomes, m: Mutant):
    out = mutant_outcomes[m.id]
    if "skip" in out:
        pytest.skip(out["skip"])
    assert out["verdict"] != Verdict.OK, f"seeded bug {m.id} passed every case"
    assert out["verdict"] in m.expect, f"{m.id}: got {out['verdict'].value}: {out['message'][:800]}"
    if m.error_class:
        assert out["class"] in m.error_class, f"{m.id}: compile error classified {out['class']}: {out['message'][:800]}"
    if m.message:
        assert m.message in out["message"], f"{m.id}: message lacks {m.message!r}: {out['message'][:800]}"
