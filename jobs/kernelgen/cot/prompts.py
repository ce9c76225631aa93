"""Teacher prompts, after the paper's Appendix D (Tables 8-10, 15, 16), written in our words.

PROMPT_VERSION goes into every record, so a change of wording is visible in the data.
"""
from __future__ import annotations

import json

PROMPT_VERSION = "cot-prompts/2"   # 2: rejected-scenario prompts (negative tiling tests)

_LANG = {"zh": "Write in Simplified Chinese.", "en": "Write in English."}


def lang_line(lang: str) -> str:
    return _LANG.get(lang, _LANG["en"])


def doc_questions(chunk_text: str, title: str, n: int, lang: str) -> list[dict[str, str]]:
    """Questions that cover every technical point of one documentation chunk (knowledge-instruct)."""
    return [
        {"role": "system", "content": "You are an Ascend C programming expert for Huawei Ascend NPUs."},
        {"role": "user", "content": (
            f"Read this section of the Ascend C documentation (\"{title}\") and write up to {n} questions that a "
            "kernel developer could ask about it. Together the questions must cover the technical points of the "
            "section: what an API does, its parameters and their units, constraints and alignment rules, and how "
            "it is called. Each question must make sense without the section. "
            f"{lang_line(lang)} Output one question per line, numbered.\n\n--- section ---\n{chunk_text}")},
    ]


def doc_answer(question: str, retrieved: list[str], lang: str) -> list[dict[str, str]]:
    """Table 8: reasoning that starts from the question, with the documents as background only."""
    docs = "\n\n".join(f"[doc {i + 1}]\n{t}" for i, t in enumerate(retrieved))
    return [
        {"role": "system", "content": "You are an Ascend C programming expert for Huawei Ascend NPUs."},
        {"role": "user", "content": (
            "Answer the question below and show your thought process. The thought process starts from the "
            "question itself, not from the documents; it lays out the approach, the analysis and the intermediate "
            "steps, and reaches the answer step by step in natural language, without quoting the documents. The "
            "documents are reference knowledge only: combine them with your own expertise.\n"
            f"{lang_line(lang)}\n"
            "Output format:\n<think>thought process</think>\n<answer>answer</answer>\n\n"
            f"Question: {question}\n\nReference documents:\n{docs}")},
    ]


def kernel_request(code: str) -> list[dict[str, str]]:
    """Table 9: the request that the given (self-contained) code answers."""
    return [
        {"role": "system", "content": "You are an expert in AscendC programming for Huawei Ascend processors."},
        {"role": "user", "content": (
            "I am building a dataset to train a model that writes AscendC operators. Each code file of an operator "
            "is one training sample; I have the answer code and need the request it answers. Analyse the code, "
            "summarise its purpose, and write a high-level, concise request such that this code is a correct "
            "response to it. Capture the core functionality; do not paste code.\n"
            "Output only the request, as <request>REQUEST_TEXT</request>.\n\nThe answer code:\n```cpp\n"
            f"{code}\n```")},
    ]


def kernel_reasoning(request: str, code: str) -> list[dict[str, str]]:
    """The chain of thought from the request to the code: function use, memory, tiling, pipeline."""
    return [
        {"role": "system", "content": "You are an expert in AscendC programming for Huawei Ascend processors."},
        {"role": "user", "content": (
            "Below is a request and the code that implements it. Write the thought process an expert would follow "
            "from the request to this code: the operator's semantics, the choice of APIs, memory movement between "
            "global memory and the unified buffer, tiling assumptions and pipeline organisation. Start from the "
            "request, not from the code, and do not repeat the code.\n"
            "Output format: <think>thought process</think>\n\n"
            f"Request:\n{request}\n\nCode:\n```cpp\n{code}\n```")},
    ]


def project_reasoning(op: str, host: str, kernel: str, scenario: dict, hardware: dict) -> list[dict[str, str]]:
    """Table 10: reasoning over a host-tiling + kernel pair for one scenario, then the tiling JSON summary."""
    return [
        {"role": "system", "content": "You are an AscendC expert."},
        {"role": "user", "content": (
            "Based on the problem, the code and the hardware configuration, write the reasoning that derives the "
            "code's logic: the host-side tiling strategy for this scenario and the kernel-side implementation and "
            "pipeline. Start from the problem itself. Then give a precise JSON summary of the values of every "
            "tiling structure member and the tiling key for this scenario.\n"
            "Output format: <think>chain of thought</think> followed by a JSON object.\n\n"
            f"### Operator\n{op}\n\n### Test case\n{json.dumps(scenario, ensure_ascii=False)}\n\n"
            f"### NPU hardware configuration\n{json.dumps(hardware, ensure_ascii=False)}\n\n"
            f"### Host source code\n```cpp\n{host}\n```\n\n### Kernel source code\n```cpp\n{kernel}\n```")},
    ]


def project_rejection(op: str, host: str, kernel: str, scenario: dict, hardware: dict) -> list[dict[str, str]]:
    """A scenario the operator's unit tests expect the host tiling to reject: reason out which check fails."""
    return [
        {"role": "system", "content": "You are an AscendC expert."},
        {"role": "user", "content": (
            "The operator's unit tests expect the host-side tiling function to reject the test case below (it "
            "returns a failure status instead of a tiling). Starting from the test case and the hardware "
            "configuration, reason through the host code's checks (shapes, dtypes, attributes, buffer sizes) and "
            "identify the check that rejects this case and why the kernel could not run it. Then say how the "
            "caller would have to change the inputs to be accepted.\n"
            "Output format: <think>chain of thought</think> followed by the explanation.\n\n"
            f"### Operator\n{op}\n\n### Test case\n{json.dumps(scenario, ensure_ascii=False)}\n\n"
            f"### NPU hardware configuration\n{json.dumps(hardware, ensure_ascii=False)}\n\n"
            f"### Host source code\n```cpp\n{host}\n```\n\n### Kernel source code\n```cpp\n{kernel}\n```")},
    ]


def project_rejection_question(op: str, scenario: dict, hardware: dict) -> str:
    return (f"The AscendC operator {op} fails in host tiling for this case: {json.dumps(scenario, ensure_ascii=False)}."
            f" Hardware: {json.dumps(hardware, ensure_ascii=False)}. Why is it rejected, and what would be accepted?")


def project_question(op: str, scenario: dict, hardware: dict) -> str:
    """The training prompt of a project sample: what a user would ask for this scenario."""
    return (f"Implement the AscendC operator {op} (host-side tiling and device kernel) for this scenario: "
            f"{json.dumps(scenario, ensure_ascii=False)}. Hardware: {json.dumps(hardware, ensure_ascii=False)}. "
            "Explain the tiling and give the tiling values as a JSON summary.")


def debug_api(code: str, log: str, docs: list[str]) -> list[dict[str, str]]:
    """Table 15: diagnose a compile error from the log and retrieved docs, then correct the code."""
    ref = "\n\n".join(f"[doc {i + 1}]\n{t}" for i, t in enumerate(docs)) or "(none)"
    return [
        {"role": "system", "content": "You are an Ascend C programming expert for Huawei Ascend NPUs."},
        {"role": "user", "content": (
            "This AscendC kernel fails to compile. Analyse the compiler error, explain its cause in terms of the "
            "API's rules, and give the corrected code.\n"
            "Output format: <think>analysis</think> then the explanation and the corrected code in a ```cpp block.\n\n"
            f"Code:\n```cpp\n{code}\n```\n\nCompiler error:\n```\n{log}\n```\n\nReference documents:\n{ref}")},
    ]


def debug_question(code: str, log: str) -> str:
    return ("My AscendC kernel fails to compile. Why, and how do I fix it?\n\n"
            f"```cpp\n{code}\n```\n\nThe error message:\n```\n{log}\n```")


def debug_kernel(task: str, wrong: str, reference: str, message: str) -> list[dict[str, str]]:
    """Table 16: ground-truth-guided reconstruction of a numerically wrong kernel."""
    return [
        {"role": "system", "content": "You are an Ascend C programming expert for Huawei Ascend NPUs."},
        {"role": "user", "content": (
            f"A generated kernel for task {task} compiles and runs but gives wrong results ({message}). A verified "
            "reference implementation is given. Find the flaws in the generated kernel (computation logic, memory "
            "staging, tiling, buffer bounds, API use), explain them, and reason your way to a correct kernel. Do "
            "not mention that you were shown the reference.\n"
            "Output format: <think>error analysis and reasoning</think> then the corrected kernel in a ```cpp block.\n\n"
            f"Generated kernel:\n```cpp\n{wrong}\n```\n\nReference kernel:\n```cpp\n{reference}\n```")},
    ]


def debug_kernel_question(task: str, wrong: str, message: str) -> str:
    return (f"My AscendC kernel for {task} runs but its results are wrong ({message}). Find the errors and give a "
            f"correct kernel.\n\n```cpp\n{wrong}\n```")
