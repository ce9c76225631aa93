"""Property-based fuzzing of spec loading: a randomly mutated sample either loads or is rejected with a SpecError whose
every line names the bad field (`<field path>: <what is wrong>`), never another exception.

Two entry points, the two ways a spec reaches the models: `load_spec` on a YAML document (the CLI, `kernelgen
validate`) and `load_spec(run_document(kind, body))` on an object as the API server returns it (the operator).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis (the dev extra) is not installed")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kernelgen.specs import Resource, SpecError, load_spec  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLES = {p.stem: yaml.safe_load(p.read_text()) for p in sorted((REPO / "crds" / "samples").glob("*.yaml"))}
# A field path as format_validation_errors writes it (spec.suite.levels[0], metadata.name, kind, <root>), then ': '.
# Odd keys are quoted: spec["a b"], metadata.labels["x:y"].
SEGMENT = r'(\.[A-Za-z_$][\w$-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])'
FIELD_LINE = re.compile(rf'^(<root>|([A-Za-z_$][\w$-]*|\["(?:[^"\\]|\\.)*"\]){SEGMENT}*): \S', re.S)
EXAMPLES = 300  # per sample and entry point

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=False, width=32),
                    st.text(max_size=12), st.sampled_from(["", "s3://b/p", "gs://b/x", "generate", "Terminate", "0"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=6)


def _nodes(doc: Any, path: tuple = ()) -> list[tuple]:
    """Every path in the document (keys and list indexes), the root excluded."""
    out = []
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return out
    for k, v in items:
        out.append(path + (k,))
        out += _nodes(v, path + (k,))
    return out


def _mutate(data: Any, doc: dict[str, Any], under: tuple = ()) -> dict[str, Any]:
    """1-3 random edits below `under`: replace a value, delete a key or item, or add an unknown key."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        paths = [p for p in _nodes(doc) if p[:len(under)] == under and len(p) > len(under)]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths), label="path")
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        op = data.draw(st.sampled_from(["replace", "delete", "add"]), label="op")
        if op == "replace":
            parent[path[-1]] = data.draw(values, label="value")
        elif op == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[data.draw(st.text(min_size=1, max_size=8), label="key")] = data.draw(values, label="value")
        else:
            parent.append(data.draw(values, label="item"))
    return doc


def _loads_or_names_fields(load) -> None:
    try:
        run = load()
    except SpecError as e:
        assert e.errors, "a SpecError without a line"
        bad = [line for line in e.errors if not FIELD_LINE.match(line) or line.startswith("<nil>")]
        assert not bad, f"rejections that do not name their field: {bad}"
    else:
        assert isinstance(run, Resource)


@pytest.mark.parametrize("sample", sorted(SAMPLES))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_yaml_loads_or_names_the_field(sample, data):
    doc = _mutate(data, SAMPLES[sample])
    # Through YAML text, as `kernelgen validate -f` reads it (yaml.safe_dump cannot write every Python value:
    # fall back to the parsed document, which load_spec also accepts).
    text = yaml.safe_dump(doc, sort_keys=False)
    _loads_or_names_fields(lambda: load_spec(text))


@pytest.mark.parametrize("sample", sorted(SAMPLES))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_api_object_loads_or_names_the_field(sample, data):
    """The operator's path: kind comes from the watched resource; the object carries server-side metadata."""
    pytest.importorskip("kopf", reason="the operator extra is not installed")
    from kernelgen_operator.reconcile import run_document

    body = copy.deepcopy(SAMPLES[sample])
    body["metadata"].update({"namespace": "ns", "uid": "0b5f-uid", "generation": 3, "resourceVersion": "42",
                             "managedFields": [{"manager": "kubectl"}]})
    body = _mutate(data, body, under=("spec",))
    _loads_or_names_fields(lambda: load_spec(run_document(body["kind"], body)))


@pytest.mark.parametrize("kind", [{"a": 1}, ["BenchRun"], 7, None, "Pod"])
def test_a_kind_of_the_wrong_type_is_a_spec_error(kind):
    doc = {**copy.deepcopy(SAMPLES["benchrun"]), "kind": kind}
    with pytest.raises(SpecError) as e:
        load_spec(doc)
    assert e.value.errors[0].startswith("kind: must be one of BenchRun, TrainRun, CoTBuild")
