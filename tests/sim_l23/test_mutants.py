"""Seeded level-2/3 bugs (tests/sim_l23/mutants.py): each gets its expected verdict and none passes. Mutants are
built and run once per session, two at a time."""
from __future__ import annotations

import concurrent.futures as cf

import pytest

from kernelgen.bench.model import Verdict

from .conftest import BUILTIN_TASKS, DATA_TASKS, FIXTURE_TASKS, answer_files, load
from .mutants import MUTANTS, Mutant


def _apply(m: Mutant, files: dict[str, str]) -> dict[str, str]:
    text = files[m.file]
    assert m.old in text, f"mutant {m.id}: anchor not found in {m.task}/{m.file}; update tests/sim_l23/mutants.py"
    return {**files, m.file: text.replace(m.old, m.new, 1)}


def _outcome(runner, m: Mutant) -> dict:
    root = {"fixture": FIXTURE_TASKS, "builtin": BUILTIN_TASKS, "data": DATA_TASKS}[m.suite]
    if not root.is_dir():
        return {"skip": f"{root} not found (../shared absent)"}
    task = load(root / m.task)
    res, rt = runner.build(task, _apply(m, answer_files(task)), tag=f"mutant-{m.id}")
    if not res.ok:
        return {"verdict": res.verdict or Verdict.COMPILE_ERROR, "class": res.error_class, "message": res.log[-1500:]}
    results = runner.run(task, rt, list(m.cases))
    for cid in m.cases:
        if results[cid].verdict != Verdict.OK:
            return {"verdict": results[cid].verdict, "class": None, "message": results[cid].message, "case": cid}
    return {"verdict": Verdict.OK, "class": None, "message": "all cases passed"}


@pytest.fixture(scope="session")
def mutant_outcomes(runner):
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        futures = {m.id: ex.submit(_outcome, runner, m) for m in MUTANTS}
        return {k: f.result() for k, f in futures.items()}


def test_suite_is_large_enough():
    assert len(MUTANTS) >= 15
    assert len({m.id for m in MUTANTS}) == len(MUTANTS)


@pytest.mark.slow
@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.id)
def test_mutant_gets_expected_verdict(mutant_outcomes, m: Mutant):
    out = mutant_outcomes[m.id]
    if "skip" in out:
        pytest.skip(out["skip"])
    assert out["verdict"] != Verdict.OK, f"seeded bug {m.id} passed every case"
    assert out["verdict"] in m.expect, f"{m.id}: got {out['verdict'].value}: {out['message'][:800]}"
    if m.message:
        assert m.message in out["message"], f"{m.id}: message lacks {m.message!r}: {out['message'][:800]}"
