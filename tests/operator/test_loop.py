"""The paper's loop on the test cluster: the five resources of crds/samples/loop/ applied at once run in
dependency order (CoTBuild -> SFT -> BenchRun -> DPO -> BenchRun), each status filled from its final stage's report.

kwok's nodes run no containers, so tests/loop/executor.py runs each pod's own command (`kernelgen ...`, the real
entrypoints) on this machine and completes the pod with the exit code and termination message it produced; the
pods are held Running until then by the testenv hold annotation, added to each run's podTemplate. The teacher is
the scripted stand-in behind an OpenAI-compatible endpoint; models, training and evaluation are real (SmolLM2-135M,
trl, the sim backend)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from kernelgen.storage import open_store
from tests.cot.scripted_server import ScriptedTeacherServer
from tests.loop.executor import HOLD, PodExecutor
from tests.loop.loop_specs import ORDER, bound_docs

from .conftest import wait_for
from .operator_manifests import EXIT_CODE, trainrun

# In `make test`: the five runs took 196 s here (kwok pods run by the executor on this machine).
pytestmark = [pytest.mark.cluster, pytest.mark.slow, pytest.mark.model]
KIND = {"loop-cot": "CoTBuild", "loop-sft": "TrainRun", "loop-bench-sft": "BenchRun", "loop-dpo": "TrainRun",
        "loop-bench-dpo": "BenchRun"}


def _path(uri: str) -> Path:
    return open_store(uri).root


def _cond(status, ctype):
    return next((c for c in status.get("conditions", []) if c["type"] == ctype), {})


def test_a_reference_to_a_failed_run_fails_the_run(ns, operator):
    doc = trainrun("sft-broken", {"uri": "s3://ds"}, nodes=1, npus=0)
    doc["spec"]["podTemplate"] = {"metadata": {"annotations": {EXIT_CODE: "2"}}}   # the entrypoint exits 2
    ns.apply({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "from-broken"},
              "spec": {"generator": {"engine": "transformers", "model": {"fromTrainRun": {"name": "sft-broken"}}},
                       "output": {"uri": "s3://results"}}})
    waiting = wait_for(lambda: _cond(ns.run_status("BenchRun", "from-broken"), "Waiting"), 30, what="Waiting")
    assert (waiting["status"], waiting["reason"]) == ("True", "DependencyNotReady")
    assert "TrainRun sft-broken does not exist yet" in waiting["message"]
    ns.apply(doc)
    ns.wait_phase("TrainRun", "sft-broken", "Failed")
    status = ns.wait_phase("BenchRun", "from-broken", "Failed")
    failed = _cond(status, "Failed")
    assert failed["reason"] == "DependencyFailed"
    assert failed["message"] == "generator.model.fromTrainRun: TrainRun sft-broken failed: PodFailurePolicy"
    assert not ns.jobs("from-broken")


def test_the_loop_applied_at_once_runs_in_dependency_order(ns, operator, tmp_path):
    out_root = tmp_path / "runs"
    env = dict(os.environ, TOKENIZERS_PARALLELISM="false", KERNELGEN_DEVICE="cpu")
    with ScriptedTeacherServer() as teacher_url, PodExecutor(ns, tmp_path / "pods", env) as executor:
        # a cluster run needs an output the pods share: file:// on a volume they mount (kwok's pods are run by the
        # executor on this machine, so a hostPath at the same path is that volume)
        docs = bound_docs(out_root.as_uri(), teacher_url)
        volume = {"volumes": [{"name": "runs", "hostPath": {"path": str(out_root), "type": "DirectoryOrCreate"}}],
                  "volumeMounts": [{"name": "runs", "mountPath": str(out_root)}]}
        for d in docs:
            d["spec"]["podTemplate"] = {"metadata": {"annotations": {HOLD: "true"}}, "spec": volume}
        # one `kubectl apply` of all five, as `kubectl apply -f crds/samples/loop/` does
        ns("apply", "-f", "-", input=json.dumps({"apiVersion": "v1", "kind": "List", "items": docs}))
        try:
            dpo = wait_for(lambda: _cond(ns.run_status("TrainRun", "loop-dpo"), "Waiting"), 60, what="DPO waiting")
        except AssertionError as e:
            raise AssertionError(f"{e}\n{json.dumps(ns.get('TrainRun', 'loop-dpo'), indent=1)[:3000]}\n"
                                 f"events: {ns.events('loop-dpo')}") from None
        assert dpo["status"] == "True" and dpo["reason"] == "DependencyNotReady"
        statuses = {}
        for name in ORDER:
            statuses[name] = wait_for(lambda n=name: (executor.error and pytest.fail(f"executor: {executor.error}"))
                                      or ((s := ns.run_status(KIND[n], n)).get("phase") in ("Succeeded", "Failed")
                                          and s), 1500, interval=2, what=f"{name} finished")
            assert statuses[name]["phase"] == "Succeeded", (name, statuses[name], executor.ran[-1:])

    # In dependency order: each run started after the runs it references had completed.
    t = {n: (s["startTime"], s["completionTime"]) for n, s in statuses.items()}
    assert t["loop-sft"][0] >= t["loop-cot"][1]
    assert t["loop-bench-sft"][0] >= t["loop-sft"][1]
    assert t["loop-dpo"][0] >= t["loop-bench-sft"][1]
    assert t["loop-bench-dpo"][0] >= t["loop-dpo"][1]
    assert [r["args"][:2] for r in executor.ran] == [
        ["cot", "generate"], ["cot", "merge"], ["train", "run"], ["bench", "generate"], ["bench", "evaluate"],
        ["bench", "report"], ["train", "run"], ["bench", "generate"], ["bench", "evaluate"], ["bench", "report"]]

    # Every status filled from its final stage's report, and equal to what the run wrote beside its artifacts.
    cot = statuses["loop-cot"]
    assert cot["records"] > 0 and _path(cot["outputs"]["uri"]) == out_root / "loop-cot"
    assert json.loads((out_root / "loop-cot" / "stats.json").read_text())["records"] == cot["records"]
    for name in ("loop-sft", "loop-dpo"):
        s = statuses[name]
        assert s["steps"] == 2 and s["finalLoss"] > 0, s
        assert _path(s["modelURI"]) == out_root / name / "model" and (out_root / name / "model" / "config.json").exists()
        record = json.loads((out_root / name / "run.json").read_text())["status"]
        assert record["finalLoss"] == s["finalLoss"] and record["steps"] == s["steps"]
    for name in ("loop-bench-sft", "loop-bench-dpo"):
        r = statuses[name]["results"]
        assert r["tasks"] == 3 and set(r["byLevel"]) == {"1"} and sum(r["verdicts"].values()) == 3, r
        assert _path(statuses[name]["outputs"]["uri"]) == out_root / name

    # References resolved into the spec each run's pods read, from the referenced runs' status.
    dpo_spec = yaml.safe_load(ns.get("configmap", "loop-dpo-spec")["data"]["spec.yaml"])["spec"]
    assert dpo_spec["model"] == {"uri": statuses["loop-sft"]["modelURI"]}
    assert dpo_spec["preferences"]["recordsUri"] == statuses["loop-bench-sft"]["outputs"]["uri"]
    assert dpo_spec["dataset"]["uri"] == cot["outputs"]["uri"]
    bench_spec = yaml.safe_load(ns.get("configmap", "loop-bench-dpo-spec")["data"]["spec.yaml"])["spec"]
    assert bench_spec["generator"]["model"]["uri"] == statuses["loop-dpo"]["modelURI"]
    assert _cond(ns.run_status("TrainRun", "loop-dpo"), "Waiting")["reason"] == "DependencyReady"

    # The execution-feedback pairs the DPO run built from the BenchRun's records.
    report = json.loads((out_root / "loop-dpo" / "data-report.json").read_text())
    assert report["preferences"]["sources"] == [statuses["loop-bench-sft"]["outputs"]["uri"]]
    prefs = report["preferences"]   # every task gave pairs or is named with the reason it gave none
    assert prefs["tasks"] == 3 == prefs["tasksWithPairs"] + len(prefs["skippedTasks"])
    assert prefs["pairs"] == sum(prefs["pairsByNegative"].values())

    diff = subprocess.run([sys.executable, "-m", "kernelgen.cli.main", "bench", "diff",
                           statuses["loop-bench-sft"]["outputs"]["uri"], statuses["loop-bench-dpo"]["outputs"]["uri"],
                           "--name", "SFT", "--name", "SFT+DPO", "--bootstrap", "200"],
                          capture_output=True, text=True, env=env)
    assert diff.returncode == 0, diff.stderr
    assert "| SFT | Level 1 |" in diff.stdout and "### SFT+DPO vs SFT" in diff.stdout
    print(diff.stdout)
    print(json.dumps({n: {k: s.get(k) for k in ("records", "finalLoss", "steps", "results")} for n, s in
                      statuses.items()}, indent=1))
