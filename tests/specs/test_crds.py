"""The generated CRDs: up to date with the models, structural, and carrying the API conventions of the design."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import pytest
import yaml

from kernelgen.specs import KINDS, crd

CRDS = Path(__file__).resolve().parents[2] / "crds"


@functools.cache
def _load(plural: str) -> dict[str, Any]:
    return yaml.load((CRDS / f"{plural}.yaml").read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load(plural: str) -> dict[str, Any]:
    return copy.deepcopy(_load(plural))


def test_crds_match_the_models():
    drift = crd.check(CRDS)
    assert drift == [], f"regenerate with `python hack/gen_crds.py`: {drift}"


def test_regenerating_writes_identical_files(tmp_path):
    written = crd.generate(tmp_path)
    assert sorted(p.name for p in written) == ["benchruns.yaml", "cotbuilds.yaml", "trainruns.yaml"]
    for p in written:
        assert p.read_text() == (CRDS / p.name).read_text()


def walk(node: dict[str, Any], path: str = ""):
    yield path, node
    for name, sub in node.get("properties", {}).items():
        yield from walk(sub, f"{path}.{name}")
    if "items" in node:
        yield from walk(node["items"], f"{path}[]")
    if isinstance(node.get("additionalProperties"), dict):
        yield from walk(node["additionalProperties"], f"{path}{{}}")


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_schema_is_structural(kind):
    schema = load(kind.plural)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    for path, node in walk(schema):
        assert not {"$ref", "$defs", "title", "allOf", "oneOf", "const", "nullable", "propertyNames"} & set(node), path
        if node.get("x-kubernetes-int-or-string"):
            assert node["anyOf"] == [{"type": "integer"}, {"type": "string"}], path
            continue
        assert "anyOf" not in node, path
        assert node.get("type") in {"object", "array", "string", "integer", "number", "boolean"}, path
        assert not ("properties" in node and "additionalProperties" in node), path
        assert node.get("additionalProperties") is not False, path
        if node["type"] == "array":
            assert "items" in node, path
        if node.get("x-kubernetes-list-type") == "map":
            keys = node["x-kubernetes-list-map-keys"]
            assert set(keys) <= set(node["items"].get("required", [])), f"{path}: map keys must be required"
        if "default" in node:
            assert not isinstance(node["default"], dict), path
        if path.startswith(".spec") and path.count(".") > 1 and not path.endswith("{}"):
            assert node.get("description") or path.endswith("[]"), f"{path} has no description for kubectl explain"


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_names_columns_subresource(kind):
    doc = load(kind.plural)
    assert doc["metadata"]["name"] == f"{kind.plural}.kernelgen.ai"
    names = doc["spec"]["names"]
    assert names["categories"] == ["npujobs"]
    assert names["shortNames"] == {"BenchRun": ["brun"], "TrainRun": ["trun"], "CoTBuild": ["cotb"]}[kind.kind_name]
    assert doc["spec"]["scope"] == "Namespaced"
    (version,) = doc["spec"]["versions"]
    assert version["name"] == "v1alpha1" and version["storage"] and version["served"]
    assert version["subresources"] == {"status": {}}
    cols = {c["name"]: c for c in version["additionalPrinterColumns"]}
    assert cols["Phase"]["jsonPath"] == ".status.phase"
    assert cols["Stage"]["jsonPath"] == ".status.currentStage"
    assert cols["Progress"]["jsonPath"] == ".status.progress.summary"
    assert cols["Started"]["type"] == "date" and cols["Age"]["jsonPath"] == ".metadata.creationTimestamp"
    assert cols["Queue"]["jsonPath"] == r".metadata.labels.kueue\.x-k8s\.io/queue-name" and cols["Queue"]["priority"] == 1
    assert cols["Output"]["priority"] == 1 and cols["Completed"]["priority"] == 1
    status = version["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"]
    assert status["conditions"]["x-kubernetes-list-type"] == "map"
    assert status["conditions"]["x-kubernetes-list-map-keys"] == ["type"]
    assert status["stages"]["x-kubernetes-list-map-keys"] == ["name"]
    assert status["phase"]["enum"] == ["Pending", "Suspended", "Running", "Succeeded", "Failed"]


def test_kubectl_explain_text_comes_from_field_descriptions():
    spec = load("benchruns")["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    ev = spec["properties"]["evaluation"]["properties"]
    assert ev["runTimeoutSeconds"]["description"] == "Time limit for running one test case."
    assert ev["runTimeoutSeconds"]["minimum"] == 1 and ev["runTimeoutSeconds"]["default"] == 120
    assert ev["memoryLimitMiB"]["default"] == 4096
    assert spec["properties"]["evalShards"]["maximum"] == 256
    # exclusiveMinimum in OpenAPI v3.0 form
    top_p = spec["properties"]["generator"]["properties"]["sampling"]["properties"]["topP"]
    assert top_p["minimum"] == 0 and top_p["exclusiveMinimum"] is True
    # opaque parts pass through
    pod = spec["properties"]["podTemplate"]["properties"]["spec"]["properties"]
    assert pod["affinity"]["x-kubernetes-preserve-unknown-fields"] is True
    assert pod["volumes"]["items"]["x-kubernetes-preserve-unknown-fields"] is True


def test_cel_rules_present():
    def rules(plural: str, *path: str) -> list[str]:
        node = load(plural)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
        for p in path:
            node = node["properties"][p]
        return [r["rule"] for r in node.get("x-kubernetes-validations", [])]

    bench_spec = rules("benchruns", "spec")
    for field in ("suite", "candidates", "generator", "evaluation", "managedBy"):
        assert any(f"self.{field} == oldSelf.{field}" in r for r in bench_spec), field
    assert any("oldSelf.shutdown == ''" in r for r in bench_spec)
    train_spec = rules("trainruns", "spec")
    assert any("self.method == oldSelf.method" in r for r in train_spec)
    assert rules("trainruns", "spec", "dataset") == ["has(self.uri) != has(self.fromCoTBuild)"]
    root = rules("cotbuilds")
    assert any("self.metadata.name.size() <= 40" in r for r in root)


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_crd_matches_the_kubernetes_api_types(kind):
    """The Kubernetes client's typed CRD model rejects keywords the apiserver does not know (e.g. propertyNames).
    The real apiserver check (server-side apply, CEL compilation) is in the operator's cluster tests."""
    k8s = pytest.importorskip("kubernetes.client", reason="the kubernetes client (operator extra) is not installed")
    model = k8s.V1CustomResourceDefinition
    if not hasattr(model, "model_validate"):
        pytest.skip("this kubernetes client has no pydantic models")
    model.model_validate(load(kind.plural))
