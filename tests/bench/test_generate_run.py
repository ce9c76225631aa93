"""`candidates.source: generate` through `kernelgen.bench.run.run`: prompts -> generate stage -> candidates.jsonl
-> parse -> evaluate -> pass@k. The LLM is a test-only engine double (FakeLLMEngine) returning canned answers;
kernels are evaluated by the stand-in backend double."""
from __future__ import annotations

import json

import pytest

from kernelgen.bench import generate_stage
from kernelgen.bench.run import run
from kernelgen.specs import load_spec

from .helpers import PyStandInBackend, make_task

ANSWERS = {
    0: "<think>draft <kernel_impl>```cpp\n// stand-in: args[0]\n```</kernel_impl></think>\n"
       "<kernel_impl>\n```cpp\n// stand-in: args[0] + args[1]\n```\n</kernel_impl>",
    1: "<kernel_impl>\n```cpp\n// stand-in: args[0] - args[1]\n```\n</kernel_impl>",
    2: "I could not write it.",
}


class FakeLLMEngine:
    """Test-only boundary double for an LLM engine: answer i for sample i, and records the prompts it saw."""

    name = "fake-llm-test-double"
    model_id = "fake"

    def __init__(self):
        self.prompts = []

    def generate(self, prompts, params):
        from kernelgen.generate.engine import Completion
        for p in prompts:
            self.prompts.append(p)
            for s in p.samples:
                text = ANSWERS[s]
                content = text.split("</think>")[-1]
                yield Completion(key=p.key, sample=s, text=text, content=content, reasoning="", prompt_tokens=10,
                                 completion_tokens=20, finish_reason="stop", seconds=0.01)

    def close(self):
        pass


@pytest.mark.slow
def test_generate_then_evaluate(tmp_path, monkeypatch):
    engine = FakeLLMEngine()
    monkeypatch.setattr(generate_stage, "make_engine", lambda gen, **kw: engine)
    make_task(tmp_path / "suite", "Add", "add")
    spec = load_spec({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "BenchRun", "metadata": {"name": "gen"},
                      "spec": {"suite": {"uri": str(tmp_path / "suite")},
                               "generator": {"engine": "transformers", "model": {"uri": "fake"},
                                             "sampling": {"samples": 3}},
                               "evaluation": {"workers": 2},
                               "metrics": {"k": [1, 2, 3], "bootstrapSamples": 0},
                               "output": {"uri": str(tmp_path / "out")}}})
    res = run(spec, backend=PyStandInBackend())
    assert res.exit_code == 0, res.messages
    assert len(engine.prompts) == 1 and "# api_desc.md" in engine.prompts[0].messages[0]["content"]
    cands = [json.loads(x) for x in (tmp_path / "out" / "gen" / "candidates.jsonl").read_text().splitlines()]
    assert sorted(c["sample"] for c in cands) == [0, 1, 2]
    assert next(c for c in cands if c["sample"] == 2)["parse_error"].startswith("no <kernel_impl>")
    m = res.summary["metrics"]
    assert m["verdicts"]["candidates"] == {"ok": 1, "value_mismatch": 1, "parse_error": 1}
    assert m["overall"]["pass_at_k"] == {"1": pytest.approx(1 / 3), "2": pytest.approx(2 / 3), "3": 1.0}
    assert m["overall"]["compile_rate"] == pytest.approx(2 / 3)
