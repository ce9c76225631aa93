"""The job -> operator report (kernelgen.specs.report) and references between runs (kernelgen.specs.refs)."""

from __future__ import annotations

import json

import pytest

from kernelgen.specs import BenchRunStatus, CoTBuildStatus, TrainRunStatus, load_spec
from kernelgen.specs.refs import (
    RUN_RECORD,
    UnresolvedReference,
    references,
    require_resolved,
    resolve_local,
    run_record,
)
from kernelgen.specs.report import (
    MAX_MESSAGE_BYTES,
    REPORTS,
    BenchRunReport,
    TrainRunReport,
    parse_report,
    publish,
    write_report,
)

STATUS = {"BenchRun": BenchRunStatus, "TrainRun": TrainRunStatus, "CoTBuild": CoTBuildStatus}


@pytest.mark.parametrize("kind", sorted(REPORTS))
def test_each_report_field_is_the_status_field(kind):
    report = REPORTS[kind].model_json_schema(by_alias=True)
    status = STATUS[kind].model_json_schema(by_alias=True)
    assert set(report["properties"]) <= set(status["properties"])
    for name, schema in report["properties"].items():
        assert schema == status["properties"][name], name
    assert "outputs" in report["properties"]


def test_report_round_trip_and_rejections():
    msg = TrainRunReport(final_loss=0.5, steps=3, model_uri="s3://m/dpo/model", outputs={"uri": "s3://m/dpo"}).to_message()
    assert json.loads(msg) == {"finalLoss": 0.5, "steps": 3, "modelURI": "s3://m/dpo/model", "outputs": {"uri": "s3://m/dpo"}}
    assert parse_report("TrainRun", msg) == json.loads(msg)
    # another kind's report carries none of this kind's fields but its outputs
    assert parse_report("CoTBuild", msg) == {"outputs": {"uri": "s3://m/dpo"}, "dropped": {}}
    assert parse_report("TrainRun", "Error: out of memory") is None
    assert parse_report("TrainRun", '{"steps": "many"}') is None
    assert parse_report("TrainRun", '{"steps": 3') is None
    assert parse_report("Pod", msg) is None


def test_write_report_only_where_the_kubelet_made_the_file(tmp_path, monkeypatch):
    report = BenchRunReport.model_validate({"results": {"passAt1": 0.25, "fastP": {"1.5": 0.25}},
                                            "outputs": {"uri": "s3://r/b"}})
    missing = tmp_path / "no-such-log"
    assert write_report(report, missing) is False and not missing.exists()
    log = tmp_path / "termination-log"
    log.write_text("")
    monkeypatch.setenv("KERNELGEN_TERMINATION_LOG", str(log))
    assert write_report(report) is True
    assert parse_report("BenchRun", log.read_text())["results"]["passAt1"] == 0.25
    huge = BenchRunReport.model_validate({"results": {"verdicts": {f"v{i}": i for i in range(600)}}})
    with pytest.raises(ValueError, match="4096"):
        write_report(huge, log)
    assert MAX_MESSAGE_BYTES == 4096
    # in a pod (the operator sets KERNELGEN_RUN) the file is created: a container runtime need not pre-create it
    monkeypatch.delenv("KERNELGEN_TERMINATION_LOG")
    monkeypatch.setenv("KERNELGEN_RUN", "BenchRun/ns/r")
    assert write_report(report, missing) is True and parse_report("BenchRun", missing.read_text())


def _doc(kind, name, spec):
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": kind, "metadata": {"name": name}, "spec": spec}


def _dpo(root):
    return load_spec(_doc("TrainRun", "dpo", {
        "method": "DPO", "model": {"fromTrainRun": {"name": "sft"}},
        "preferences": {"fromBenchRun": {"name": "bench-sft"}, "strategy": "green-vs-purple"},
        "output": {"uri": str(root)}}))


def test_references_resolve_against_local_run_records(tmp_path):
    run = _dpo(tmp_path)
    assert sorted((r.path, name) for r, name in references(run)) == [
        ("model.fromTrainRun", "sft"), ("preferences.fromBenchRun", "bench-sft")]
    with pytest.raises(UnresolvedReference, match="references other runs"):
        require_resolved(run)
    with pytest.raises(UnresolvedReference, match=f"BenchRun bench-sft has not completed under {tmp_path}"):
        resolve_local(run, str(tmp_path))

    (tmp_path / "sft").mkdir()
    (tmp_path / "sft" / RUN_RECORD).write_text(json.dumps(run_record(
        "TrainRun", "sft", {"modelURI": str(tmp_path / "sft" / "model"), "steps": 2})))
    (tmp_path / "bench-sft").mkdir()
    (tmp_path / "bench-sft" / RUN_RECORD).write_text(json.dumps(run_record(
        "CoTBuild", "bench-sft", {"outputs": {"uri": "x"}})))
    with pytest.raises(UnresolvedReference, match="is a CoTBuild, not a BenchRun"):
        resolve_local(run, str(tmp_path))

    bench = load_spec(_doc("BenchRun", "bench-sft", {
        "generator": {"engine": "transformers", "model": {"fromTrainRun": {"name": "sft"}}},
        "suite": {"names": ["Mul"]}, "output": {"uri": str(tmp_path)}}))
    report = BenchRunReport.model_validate({"results": {"passAt1": 0.0}, "outputs": {"uri": str(tmp_path / "bench-sft")}})
    publish(bench, report)   # what the report stage does: run.json beside the artifacts
    done = resolve_local(run, str(tmp_path))
    assert references(done) == []
    require_resolved(done)
    assert done.spec.model.uri == str(tmp_path / "sft" / "model") and done.spec.model.from_train_run is None
    assert done.spec.preferences.records_uri == str(tmp_path / "bench-sft")
    assert done.spec.preferences.strategy == "green-vs-purple"   # the rest of the spec is kept

    resolved_bench = resolve_local(bench, str(tmp_path))
    assert resolved_bench.spec.generator.model.uri == str(tmp_path / "sft" / "model")


def test_a_resolved_model_drops_the_gguf_file_of_the_reference(tmp_path):
    (tmp_path / "sft").mkdir()
    (tmp_path / "sft" / RUN_RECORD).write_text(json.dumps(run_record("TrainRun", "sft", {"modelURI": "s3://m"})))
    run = load_spec(_doc("TrainRun", "t", {"method": "SFT", "model": {"fromTrainRun": {"name": "sft"},
                                                                      "ggufFile": "x.gguf"},
                                          "dataset": {"uri": "d"}, "output": {"uri": str(tmp_path)}}))
    done = resolve_local(run, str(tmp_path))
    assert done.spec.model.uri == "s3://m" and done.spec.model.gguf_file is None
