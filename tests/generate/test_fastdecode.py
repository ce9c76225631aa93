"""StaticDecoder (the GPU throughput path) must decode exactly what model.generate decodes. On CPU it runs the
same code without the CUDA graph, so these tests check the model math, left padding, EOS and sampling."""
from __future__ import annotations

import pytest
import torch
from kernelgen.generate.fastdecode import StaticDecoder, supports


def _model(kind: str):
    from transformers import AutoModelForCausalLM, LlamaConfig, Qwen3Config

    torch.manual_seed(0)
    common = dict(vocab_size=300, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                  eos_token_id=None, pad_token_id=0, bos_token_id=None)
    cfg = Qwen3Config(num_key_value_heads=2, head_dim=16, **common) if kind == "qwen3" else \
        LlamaConfig(num_key_value_heads=1, **common)
    m = AutoModelForCausalLM.from_config(cfg).eval()
    m.generation_config.eos_token_id = None
    with torch.no_grad():          # sharper logits than the default init, so greedy choices are not near-ties
        for p in m.parameters():
            if p.dim() > 1:
                p.mul_(5)
    return m


@pytest.mark.parametrize("kind", ["qwen3", "llama"])
def test_greedy_matches_generate_with_left_padding(kind):
    m = _model(kind)
    assert supports(m) == (True, "")
    ids = torch.randint(1, 299, (3, 10))
    mask = torch.ones_like(ids)
    mask[0, :3] = 0
    mask[1, :1] = 0
    ref = m.generate(input_ids=ids, attention_mask=mask, max_new_tokens=12, do_sample=False, pad_token_id=0)[:, 10:]
    out = StaticDecoder(m, use_graph=False).generate(ids, mask, max_new_tokens=12)
    assert torch.equal(out.tokens, ref)
    assert out.lengths.tolist() == [12, 12, 12]


def test_eos_stops_a_row_and_pads_the_rest():
    m = _model("llama")
    ids = torch.randint(1, 299, (2, 8))
    mask = torch.ones_like(ids)
    ref = m.generate(input_ids=ids, attention_mask=mask, max_new_tokens=10, do_sample=False, pad_token_id=0)[:, 8:]
    eos = int(ref[1, 3])
    first = (ref[1] == eos).nonzero()[0].item()
    out = StaticDecoder(m, use_graph=False).generate(ids, mask, max_new_tokens=10, eos_ids=[eos], pad_id=0)
    assert out.tokens[1, :first + 1].tolist() == ref[1, :first + 1].tolist()
    assert out.tokens[1, first + 1:].eq(0).all()
    assert out.lengths[1].item() == first + 1


def test_sampling_is_seeded_and_respects_top_p():
    m = _model("qwen3")
    ids = torch.randint(1, 299, (2, 6))
    mask = torch.ones_like(ids)
    dec = StaticDecoder(m, use_graph=False)
    run = lambda seed, top_p: dec.generate(ids, mask, max_new_tokens=16, temperature=1.0, top_p=top_p,
                                           generator=torch.Generator().manual_seed(seed)).tokens
    assert torch.equal(run(1, 0.9), run(1, 0.9))
    assert not torch.equal(run(1, 0.9), run(2, 0.9))
    # top_p tiny keeps only the most likely token: sampling becomes greedy
    greedy = dec.generate(ids, mask, max_new_tokens=16).tokens
    assert torch.equal(run(3, 1e-6), greedy)


def test_repeats_share_the_prompt_pass():
    m = _model("qwen3")
    ids = torch.randint(1, 299, (2, 7))
    mask = torch.ones_like(ids)
    mask[1, :2] = 0
    dec = StaticDecoder(m, use_graph=False)
    once = dec.generate(ids, mask, max_new_tokens=9).tokens
    rep = dec.generate(ids, mask, max_new_tokens=9, repeats=[3, 2]).tokens
    assert rep.shape == (5, 9)
    assert torch.equal(rep, once.repeat_interleave(torch.tensor([3, 2]), 0))
