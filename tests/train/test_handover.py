"""The CoTBuild -> TrainRun hand-over: a TrainRun with `dataset.fromCoTBuild` trains on the records that the
CoTBuild wrote. (A CoTBuild used to write at the root of spec.output.uri while its status and the TrainRun read
<uri>/<name>/, so the hand-over found nothing.) The teacher is the scripted stand-in of tests/cot (the model
boundary); everything else is the real pipeline, entrypoint report and resolution code."""
from __future__ import annotations

import json

from kernelgen.specs import load_spec

from tests.cot.conftest import spec_doc
from tests.cot.scripted import ScriptedEngine


def test_trainrun_reads_the_records_its_cotbuild_wrote(tmp_path, smol_tokenizer):
    from kernelgen.cli.cot import _report
    from kernelgen.cot import pipeline
    from kernelgen.cot.context import Options
    from kernelgen.specs.refs import RUN_RECORD, resolve_local
    from kernelgen.specs.report import parse_report
    from kernelgen.train import runner, settings

    root = tmp_path / "runs"   # one output root shared by both runs, as in crds/samples/loop
    doc = spec_doc(root, stages=["docs", "kernel", "general"])
    doc["metadata"]["name"] = "cot"
    cot = load_spec(doc)
    summary = pipeline.run(cot, Options(), engine_factory=ScriptedEngine)
    log = tmp_path / "termination-log"
    log.write_text("")
    import os
    os.environ["KERNELGEN_TERMINATION_LOG"] = str(log)
    try:
        _report(cot, summary)   # what `kernelgen cot merge` / `cot run` hand on
    finally:
        del os.environ["KERNELGEN_TERMINATION_LOG"]

    status = parse_report("CoTBuild", log.read_text())   # what the operator copies into status
    assert status["records"] == summary["records"] > 0
    assert status["outputs"]["uri"] == cot.output_uri() == str(root / "cot")
    assert json.loads((root / "cot" / RUN_RECORD).read_text())["status"]["records"] == summary["records"]

    tr = load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "TrainRun", "metadata": {"name": "sft"},
                    "spec": {"method": "SFT", "model": {"uri": "smollm2"}, "dataset": {"fromCoTBuild": {"name": "cot"}},
                             "hyperparameters": {"maxLength": 4096}, "output": {"uri": str(root)}}})
    local = resolve_local(tr, str(root))                   # `kernelgen train run --runs-root`
    assert local.spec.dataset.uri == status["outputs"]["uri"]  # the operator substitutes status.outputs.uri

    s = settings.resolve(local.spec.hyperparameters, method="SFT", lora=True)
    rows, info = runner.load_training_rows(local, s, smol_tokenizer, local.output_uri())
    written = [json.loads(line) for line in (root / "cot" / "dataset" / "messages.jsonl").read_text().splitlines()]
    assert info["report"]["read"] == len(written) == summary["records"]
    assert info["report"]["format"] == "messages" and info["report"]["kept"] == len(rows) > 0
    assert {r["messages"][-2]["content"] for r in rows} <= {w["messages"][-2]["content"] for w in written}
