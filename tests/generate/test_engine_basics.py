from __future__ import annotations

import pytest
from kernelgen.generate.engine import (
    Prompt,
    render_chatml,
    sample_seed,
    split_reasoning,
)


@pytest.mark.parametrize("text,prefilled,want", [
    ("<think>\nplan it\n</think>\n<kernel_impl>x</kernel_impl>", False, ("plan it", "<kernel_impl>x</kernel_impl>")),
    ("  <THINK>a</THINK>b", False, ("a", "b")),
    ("plan it</think>answer", True, ("plan it", "answer")),
    ("still thinking when max_tokens hit", True, ("still thinking when max_tokens hit", "")),
    ("<think>cut off mid-thought", False, ("cut off mid-thought", "")),
    ("just an answer", False, ("", "just an answer")),
    # template put <think> into the prompt; the text starts inside the block
    ("reasoning here</think>\nanswer", False, ("reasoning here", "answer")),
    # a think tag quoted inside the answer is content, not reasoning
    ("Use tags like <think>...</think> in prose", False, ("", "Use tags like <think>...</think> in prose")),
])
def test_split_reasoning(text, prefilled, want):
    assert split_reasoning(text, prefilled_think=prefilled) == want


def test_sample_seed_is_stable_and_distinct():
    assert sample_seed(None, "t", 0) is None
    seeds = {sample_seed(0, "level1/Math/Add", s) for s in range(100)}
    assert len(seeds) == 100
    assert sample_seed(0, "a", 3) == sample_seed(0, "a", 3) != sample_seed(1, "a", 3)
    assert all(0 <= s < 2 ** 31 for s in seeds)


def test_prompt_hash_covers_messages_and_prefix():
    m = [{"role": "user", "content": "x"}]
    assert Prompt("a", m, [0]).sha256 == Prompt("b", m, [1, 2]).sha256
    assert Prompt("a", m, [0]).sha256 != Prompt("a", m, [0], assistant_prefix="<think>\n").sha256


def test_render_chatml_matches_npukernelbench_wrapping():
    text = render_chatml([{"role": "user", "content": "hi"}], "<think>")
    assert text == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>"
