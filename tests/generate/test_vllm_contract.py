"""Contract test of the `vllm` engine. vllm cannot be installed on the CPU machines (its CUDA wheel pins
another torch and transformers), so this runs only where vllm imports, e.g. a GPU or NPU image."""
from __future__ import annotations

import pytest
from kernelgen.generate.engine import Prompt, SamplingParams
from kernelgen.generate.vllm_engine import vllm_available

ok, why = vllm_available()
pytestmark = pytest.mark.skipif(not ok, reason=why)

SMOL_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.fixture(scope="module")
def smol_hf(tmp_path_factory, smol_dir):
    """SmolLM2 as a plain HF checkpoint (vllm's GGUF path needs an extra plugin)."""
    from kernelgen.generate.transformers_engine import load_model

    model, tok = load_model(smol_dir, gguf_file=SMOL_GGUF, device="cpu")
    out = tmp_path_factory.mktemp("smol-hf")
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


def test_vllm_engine_contract(smol_hf):
    from kernelgen.generate.vllm_engine import VLLMEngine

    eng = VLLMEngine(smol_hf, tensor_parallel_size=1, max_model_len=1024, gpu_memory_utilization=0.3)
    prompts = [Prompt("t1", [{"role": "user", "content": "Write a C++ add function."}], [0, 1, 2]),
               Prompt("t2", [{"role": "user", "content": "Say hi."}], [1, 3], assistant_prefix="<think>\n")]
    params = SamplingParams(n=4, temperature=0.7, top_p=0.9, max_tokens=24, seed=7)
    got = {(c.key, c.sample): c for c in eng.generate(prompts, params)}
    assert set(got) == {("t1", 0), ("t1", 1), ("t1", 2), ("t2", 1), ("t2", 3)}
    for c in got.values():
        assert 0 < c.completion_tokens <= 24 and c.prompt_tokens > 0
        assert c.finish_reason in ("stop", "length")
        assert c.seed is not None
    # The prefilled think block is part of the text, and its reasoning is split out.
    assert got[("t2", 1)].text.startswith("<think>\n")
    # Per-sample seeds: asking for one sample again alone reproduces it exactly.
    again = list(eng.generate([Prompt("t1", prompts[0].messages, [1])], params))
    assert again[0].text == got[("t1", 1)].text
    # Without a run seed, one request per prompt with n = samples wanted.
    reqs = eng.requests(prompts, SamplingParams(n=4, seed=None))
    assert [(r[0].key, r[1], r[2].n) for r in reqs] == [("t1", [0, 1, 2], 3), ("t2", [1, 3], 2)]
    eng.close()
