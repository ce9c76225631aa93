"""The transformers engine on the real SmolLM2-135M-Instruct GGUF (CPU)."""
from __future__ import annotations

import pytest
from kernelgen.generate.engine import Prompt, SamplingParams

pytestmark = pytest.mark.model

CODE = [{"role": "user", "content": "Write a C++ function that adds two arrays."}]
HI = [{"role": "user", "content": "Say hi."}]


def test_batched_left_padded_greedy_equals_one_at_a_time(smol_engine):
    params = SamplingParams(temperature=0.0, max_tokens=16)
    together = {c.key: c for c in smol_engine.generate([Prompt("code", CODE, [0]), Prompt("hi", HI, [0])], params)}
    alone = [next(iter(smol_engine.generate([Prompt(k, m, [0])], params))) for k, m in (("code", CODE), ("hi", HI))]
    for c in alone:
        assert together[c.key].text == c.text, c.key     # padding must not change what a row decodes
        assert together[c.key].completion_tokens == c.completion_tokens
    assert together["code"].prompt_tokens > together["hi"].prompt_tokens
    assert "```" in together["code"].text or "#include" in together["code"].text


def test_n_samples_finish_reasons_and_stop_strings(smol_engine):
    got = list(smol_engine.generate([Prompt("code", CODE, [0, 1, 2])],
                                    SamplingParams(temperature=0.8, top_p=0.95, max_tokens=12, seed=3)))
    assert sorted(c.sample for c in got) == [0, 1, 2]
    for c in got:
        assert c.finish_reason in ("length", "stop") and 0 < c.completion_tokens <= 12
        assert c.finish_reason == "stop" or c.completion_tokens == 12
    stopped = next(iter(smol_engine.generate([Prompt("code", CODE, [0])],
                                             SamplingParams(temperature=0.0, max_tokens=40, stop=("#include",)))))
    assert stopped.finish_reason == "stop" and "#include" not in stopped.text


def test_prefilled_think_is_split_as_reasoning(smol_engine):
    c = next(iter(smol_engine.generate([Prompt("hi", HI, [0], assistant_prefix="<think>\n")],
                                       SamplingParams(temperature=0.0, max_tokens=8))))
    assert c.text.startswith("<think>\n")
    # SmolLM2 never closes the block in 8 tokens: it is all reasoning, no answer.
    assert c.reasoning and c.content == ""
