"""Kernel backends are known by name in one place (kernelgen.specs.backends): the spec's enum, the harness's lookup
and what a backend reads from the spec come from it, and no other code compares a backend's name."""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from kernelgen.bench.backends import BackendUnavailable, backend_for, get_backend
from kernelgen.bench.model import Backend
from kernelgen.specs import load_spec
from kernelgen.specs.backends import BACKENDS, backend_options, evaluator_npus
from kernelgen.specs.benchrun import Evaluation

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "jobs" / "kernelgen" / "specs" / "backends.py"
# Left to its owner for now (the operator's pod shapes; the fix is `npus = evaluator_npus(spec.evaluation)`).
# Listed so the scan below stays strict elsewhere, and fails once the comparison is gone so this entry goes too.


def _spec(**evaluation):
    return load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "b"},
                      "spec": {"suite": {"uri": "builtin"}, "candidates": {"source": "reference"},
                               "evaluation": evaluation, "output": {"uri": "/tmp/unused"}}})


def test_the_spec_enum_is_the_registry():
    assert Evaluation.model_json_schema()["properties"]["backend"]["enum"] == list(BACKENDS)


@pytest.mark.parametrize("name", list(BACKENDS))
def test_every_registered_backend_has_its_module(name):
    assert importlib.util.find_spec(f"kernelgen.bench.backends.{name}") is not None


def test_options_and_npus_come_from_the_registry():
    sim = _spec(backend="sim", syncCheck="warn").spec.evaluation
    assert backend_options(sim) == {"sync_check": "warn"} and evaluator_npus(sim) == 0
    ascend = _spec(backend="ascend").spec.evaluation
    assert backend_options(ascend) == {} and evaluator_npus(ascend) == 1
    assert evaluator_npus(_spec(backend="sim", npus=1).spec.evaluation) == 1
    be = backend_for(sim)
    assert be.name == "sim" and be.sync_check == "warn" and isinstance(be, Backend)


def test_an_unregistered_name_is_refused_with_the_registered_ones():
    with pytest.raises(BackendUnavailable, match="registered: sim, ascend"):
        get_backend("os")


def test_hooks_have_defaults_a_backend_overrides():
    from kernelgen.bench.backends.ascend import AscendBackend
    from kernelgen.bench.backends.sim import SimBackend

    assert SimBackend().after_case(None, None, "result") == "result"    # the protocol's default: unchanged
    assert SimBackend.warm_up is not Backend.warm_up                     # sim builds its precompiled headers
    assert AscendBackend.after_case is not Backend.after_case            # ascend: typed errors, canary


def _name_comparisons(path: Path) -> int:
    names = set(BACKENDS)
    found = 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            consts = [c for p in parts for c in ([p] if isinstance(p, ast.Constant) else
                                                 p.elts if isinstance(p, (ast.Tuple, ast.List, ast.Set)) else [])]
            found += any(isinstance(c, ast.Constant) and c.value in names for c in consts)
    return found


def test_no_backend_name_is_compared_outside_the_registry():
    found = {}
    for top in (ROOT / "jobs" / "kernelgen", ROOT / "operator" / "kernelgen_operator"):
        for p in top.rglob("*.py"):
            rel = p.relative_to(ROOT).as_posix()
            if p == REGISTRY or "/bench/suite/" in rel:
                continue
            n = _name_comparisons(p)
            if n:
                found[rel] = n
    assert found == {}
