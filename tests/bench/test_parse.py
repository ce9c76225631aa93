from __future__ import annotations

from kernelgen.bench.parse import parse_response

K = "add_custom"


def test_kernel_only_takes_the_block_after_the_reasoning():
    text = ("<think>draft:\n<kernel_impl>\n```cpp\nDRAFT\n```\n</kernel_impl>\nhmm, wrong.</think>\n"
            "Final answer:\n<kernel_impl>\n```cpp\nFINAL();\n```\n</kernel_impl>\n")
    p = parse_response(text, K)
    assert p.ok and p.files == {"op_kernel/add_custom.cpp": "FINAL();\n"}
    assert "DRAFT" in p.reasoning


def test_kernel_only_takes_the_last_block_and_accepts_a_bare_body():
    text = "<kernel_impl>first()</kernel_impl> then <kernel_impl>\nsecond();\n</kernel_impl>"
    assert parse_response(text, K).files["op_kernel/add_custom.cpp"] == "second();\n"


def test_reasoning_only_response_is_not_parsed_from_the_draft():
    text = "<think>I will write <kernel_impl>```cpp\nDRAFT\n```</kernel_impl> soon"
    p = parse_response(text, K)
    assert not p.ok and "ended inside <think>" in p.error


def test_prefilled_think_without_opening_tag():
    text = "reasoning with a draft <kernel_impl>```cpp\nDRAFT\n```</kernel_impl></think>\nno block here"
    p = parse_response(text, K)
    assert not p.ok and "no <kernel_impl>" in p.error


def test_explains_missing_or_unterminated_blocks():
    assert "outside any <kernel_impl>" in parse_response("```cpp\nx\n```", K).error
    assert "no closing </kernel_impl>" in parse_response("<kernel_impl>```cpp\nx", K).error
    assert "empty" in parse_response("<kernel_impl>\n```cpp\n```\n</kernel_impl>", K).error
    assert parse_response("", K).error == "empty response"


def _full(tiling="T", host="H", kernel="KERN"):
    return (f"================== op_host/{K}_tiling.h ==================\n```cpp\n{tiling}\n```\n"
            f"================== op_host/{K}.cpp ==================\n```cpp\n{host}\n```\n"
            f"==================op_kernel/{K}.cpp==================\n```cpp\n{kernel}\n```\n")


def test_full_template_three_files_after_reasoning():
    text = "<think>" + _full(kernel="DRAFT") + "</think>" + _full()
    p = parse_response(text, K, "full")
    assert p.ok
    assert p.files == {f"op_host/{K}_tiling.h": "T\n", f"op_host/{K}.cpp": "H\n", f"op_kernel/{K}.cpp": "KERN\n"}


def test_full_template_names_the_missing_file():
    text = _full().split(f"================== op_host/{K}.cpp")[0]
    p = parse_response(text, K, "full")
    assert not p.ok
    assert f"op_host/{K}.cpp" in p.error and f"op_kernel/{K}.cpp" in p.error
