"""The spec models: valid specs load with their defaults, bad ones give one line per bad field naming its path."""

from __future__ import annotations

import pytest
import yaml

from kernelgen.specs import BenchRun, CoTBuild, SpecError, TrainRun, load_spec


def errors_of(doc) -> list[str]:
    with pytest.raises(SpecError) as info:
        load_spec(doc)
    return info.value.errors


def test_valid_specs_load_with_defaults(bench, train, cot):
    b = load_spec(bench)
    assert isinstance(b, BenchRun)
    assert b.spec.evaluation.run_timeout_seconds == 60
    assert b.spec.evaluation.compile_timeout_seconds == 600
    assert b.spec.generator.sampling.n == 10 and b.spec.generator.sampling.max_tokens == 16384
    assert b.spec.backoff_limit == 2 and b.spec.shutdown == ""
    rules = b.spec.failure_policy.rules
    assert [(r.action, r.on_pod_conditions and r.on_pod_conditions[0].type) for r in rules][0] == (
        "Ignore", "DisruptionTarget")
    assert rules[1].action == "FailRun" and rules[1].on_exit_codes.values == [2]
    assert b.output_uri() == "s3://results/bench/br1"

    t = load_spec(train)
    assert isinstance(t, TrainRun)
    assert t.spec.dataset.from_co_t_build.name == "cot1"
    assert t.spec.resources.cpu == "16" and t.spec.resources.memory == "64Gi"
    assert t.spec.hyperparameters.extra == {"gradient_checkpointing": True}
    assert t.spec.peft.method == "lora" and t.spec.peft.target_modules == ["all-linear"]

    c = load_spec(cot)
    assert isinstance(c, CoTBuild)
    assert c.spec.effective_stages() == ["docs", "debug"]


def test_yaml_round_trip_is_stable(bench, train, cot):
    for doc in (bench, train, cot):
        first = load_spec(doc)
        text = yaml.safe_dump(first.to_yaml_dict())
        again = load_spec(text)
        assert again == first
        assert again.to_yaml_dict() == first.to_yaml_dict()


def test_load_from_file_and_kind_check(tmp_path, bench):
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(bench))
    assert isinstance(load_spec(path), BenchRun)
    assert isinstance(load_spec(str(path), expect=BenchRun), BenchRun)
    with pytest.raises(SpecError) as info:
        load_spec(path, expect=TrainRun)
    assert info.value.errors == ["kind: expected TrainRun (got BenchRun)"]


def test_one_line_per_bad_field_with_path_and_allowed_values(bench):
    bench["spec"]["evaluation"] = {"runTimeoutSeconds": 0, "backend": "npu", "trials": "many"}
    bench["spec"]["suite"]["shapeMode"] = "wobbly"
    bench["spec"]["backoffLimit"] = 21
    bench["spec"]["podTemplate"] = {"spec": {"tolerations": [{"operator": "Maybe"}]}}
    errs = errors_of(bench)
    assert len(errs) == 6, errs
    by_path = {e.split(": ", 1)[0]: e.split(": ", 1)[1] for e in errs}
    assert set(by_path) == {
        "spec.evaluation.runTimeoutSeconds",
        "spec.evaluation.backend",
        "spec.evaluation.trials",
        "spec.suite.shapeMode",
        "spec.backoffLimit",
        "spec.podTemplate.spec.tolerations[0].operator",
    }
    assert "greater than or equal to 1" in by_path["spec.evaluation.runTimeoutSeconds"]
    assert "'sim' or 'ascend'" in by_path["spec.evaluation.backend"]
    assert "'static' or 'dynamic'" in by_path["spec.suite.shapeMode"]
    assert "less than or equal to 20" in by_path["spec.backoffLimit"]
    assert "'Exists' or 'Equal'" in by_path["spec.podTemplate.spec.tolerations[0].operator"]


def test_unknown_field_lists_allowed_names(bench):
    bench["spec"]["evaluation"]["runTimeout"] = 5
    bench["spec"]["bogus"] = 1
    errs = errors_of(bench)
    assert len(errs) == 2
    ev = next(e for e in errs if e.startswith("spec.evaluation.runTimeout:"))
    assert "unknown field" in ev and "runTimeoutSeconds" in ev and "compileTimeoutSeconds" in ev
    top = next(e for e in errs if e.startswith("spec.bogus:"))
    assert "suspend" in top and "evalShards" in top


def test_missing_required_fields(train):
    del train["spec"]["method"]
    del train["spec"]["model"]["uri"]
    assert sorted(errors_of(train)) == [
        "spec.method: required field is missing",
        "spec.model.uri: set exactly one of uri and fromTrainRun",
    ]


@pytest.mark.parametrize(
    "name, ok",
    [("br1", True), ("a" * 40, True), ("a" * 41, False), ("1abc", False), ("ab_c", False), ("abc-", False),
     ("Abc", False)],
)
def test_metadata_name_is_dns1035_of_at_most_40(bench, name, ok):
    bench["metadata"]["name"] = name
    if ok:
        assert load_spec(bench).name == name
    else:
        (err,) = errors_of(bench)
        assert err.startswith("metadata.name: ")


def test_wrong_api_version_and_kind(bench):
    bench["apiVersion"] = "kernelgen.ai/v1"
    (err,) = errors_of(bench)
    assert err.startswith("apiVersion: ") and "kernelgen.ai/v1alpha1" in err
    bench["kind"] = "BenchJob"
    assert errors_of(bench) == ["kind: must be one of BenchRun, TrainRun, CoTBuild (got 'BenchJob')"]


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("kind: BenchRun\nspec: {a: [1, 2}\n")
    (err,) = errors_of(path)
    assert str(path) in err and "line 2" in err


# --- cross-field rules (the same rules exist as CEL in the CRDs; see test_cel.py) ------------------------------------


def test_candidates_uri_required_for_jsonl(bench):
    bench["spec"]["candidates"] = {"source": "jsonl"}
    assert errors_of(bench) == ["spec.candidates.uri: required when source is jsonl"]
    bench["spec"]["candidates"]["uri"] = "gens.jsonl"
    assert load_spec(bench).spec.candidates.uri == "gens.jsonl"


def test_generator_required_when_generating(bench):
    del bench["spec"]["generator"]
    assert errors_of(bench) == ["spec.generator: required when candidates.source is generate"]
    bench["spec"]["candidates"] = {"source": "reference"}
    assert load_spec(bench).spec.generator is None


def test_openai_engine_needs_endpoint(cot):
    del cot["spec"]["teacher"]["endpoint"]
    assert errors_of(cot) == ["spec.teacher.endpoint: required when engine is openai"]


def test_dataset_is_uri_xor_cotbuild(train):
    train["spec"]["dataset"]["uri"] = "s3://d/x.jsonl"
    assert errors_of(train) == ["spec.dataset.uri: set exactly one of uri and fromCoTBuild"]
    train["spec"]["dataset"] = {}
    assert errors_of(train) == ["spec.dataset.uri: set exactly one of uri and fromCoTBuild"]


def test_failure_rule_needs_exactly_one_matcher(bench):
    bench["spec"]["failurePolicy"] = {"rules": [{"action": "Ignore"}]}
    assert errors_of(bench) == [
        "spec.failurePolicy.rules[0].onExitCodes: set exactly one of onExitCodes and onPodConditions"
    ]


def test_cot_stages_need_sources_and_failed_shards_bound(cot):
    cot["spec"]["stages"] = ["docs", "kernel"]
    assert errors_of(cot) == ["spec.stages: stage kernel needs sources.kernels"]
    cot["spec"]["stages"] = ["debug"]
    assert load_spec(cot).spec.effective_stages() == ["debug"]
    cot["spec"]["allowedFailedShards"] = 4
    assert errors_of(cot) == ["spec.allowedFailedShards: must be less than shards (4)"]
    cot["spec"]["sources"] = {}
    assert errors_of(cot) == [
        "spec.sources.docs: set at least one source (docs, kernels, projects, general, benchRecords)"
    ]
