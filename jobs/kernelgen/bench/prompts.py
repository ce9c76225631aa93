"""Prompt builder for kernel generation (the structure of the paper's Table 11 / NPUKernelBench §3).

Sections, in order: instructions (role, language, code style, output format, reminders), implementation
requirements, ``api_desc.md`` (with the case dtype injected in static mode), the test cases, the hardware
description, the host template, the kernel template, and the output template to fill.

Test cases are rendered as the CSV text itself (header plus the selected rows), in full: NPUKernelBench's
pandas repr cuts long cells and elides wide frames, which loses shapes; we never truncate.
The wording is ours (the clean-room rule applies to prompts too).
"""
from __future__ import annotations

import hashlib
import re

from .model import Task, TestCase
from .tasks import select_cases

TEMPLATES = ("kernel-only", "full")

#: Ascend910B-class vector/cube core counts and unified-buffer size, as the reference harness states them.
DEFAULT_HARDWARE = """SoC_version=Ascend910B
ai_core_cnt=24
cube_core_cnt=24
vector_core_cnt=48
ub_size=196608
l1_size=524288
l0_a_size=65536
l0_b_size=65536
l0_c_size=131072"""

_INSTRUCTIONS = """You are a professional Ascend kernel development engineer. Write the operator below in Ascend C.
- Keep the code readable and add the comments a reviewer needs.
- Take care of the tensor data types, shapes and memory layouts the test cases use.
- Reason first, then give the answer in exactly the output format at the end of this prompt."""

_REQ_COMMON = [
    "Keep every function name, class name, template parameter and namespace of the templates unchanged.",
    "Define every symbol you use; the code must compile as a translation unit of its own.",
    "Stay within the hardware limits below; never read or write outside the tensors' extents.",
    "Do not use DTYPE_X-style placeholders; use concrete types (half/float16_t, bfloat16_t, float, int32_t ...).",
    "DataCopy lengths and unified-buffer addresses must be multiples of 32 bytes; handle tails that are not "
    "(for example with DataCopyPad).",
]
_REQ_KERNEL_ONLY = [
    "Write only the device kernel (op_kernel/{kernel}.cpp). The host file is the given host template, used "
    "verbatim: it passes no tiling data and launches all {cores} cores.",
    "Do not call GET_TILING_DATA. Define a local TilingDataDef struct in the kernel and fill it with values "
    "derived from the shapes in the test cases.",
    "Implement what the listed test cases need (shapes, dtypes and attributes).",
]
_REQ_FULL = [
    "Write three files: the tiling header op_host/{kernel}_tiling.h (BEGIN_TILING_DATA_DEF ... "
    "REGISTER_TILING_DATA_CLASS({op}, TilingData)), the host op_host/{kernel}.cpp (a TilingFunc that derives "
    "the tiling from the input shapes, registered with SetTiling, plus the OpDef of the template) and the "
    "kernel op_kernel/{kernel}.cpp (reading its tiling with GET_TILING_DATA).",
    "Choose the number of cores in the TilingFunc (SetBlockDim).",
    "The kernel must work for every shape in the test cases, read from the tiling at run time.",
]


def _fence(text: str, lang: str = "") -> str:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}"


def render_cases(task: Task, cases: list[TestCase]) -> str:
    """The test cases as CSV text: header and every selected row, cells exactly as written."""
    cols = list(task.cases[0].raw or task.cases[0].values) if task.cases else []
    lines = [";".join(["case_id", *cols])]
    for c in cases:
        raw = c.raw or {k: str(v) for k, v in c.values.items()}
        lines.append(";".join([str(c.case_id), *(raw.get(col, "") for col in cols)]))
    return "\n".join(lines)


def api_desc_for(task: Task, cases: list[TestCase], shape_mode: str) -> str:
    """api_desc.md; in static mode with a dtype column, the case's dtype is stated up front (as NKB does)."""
    text = task.api_desc
    if shape_mode != "static" or not cases:
        return text
    dtype = (cases[0].raw or {}).get("dtype") or cases[0].values.get("dtype")
    if not dtype:
        return text
    section = f"## Supported Data Types\n- {dtype}\n\n"
    m = re.search(r"^## Functional Description", text, flags=re.M)
    return text[: m.start()] + section + text[m.start():] if m else section + text


def _cores(task: Task) -> str:
    host = task.question_files.get(f"op_host/{task.kernel_name}.cpp", "")
    return "24 AI Cube (AIC)" if "GetCoreNumAic" in host else "48 AI Vector (AIV)"


def output_template(task: Task, template: str) -> str:
    k = task.kernel_name
    if template == "kernel-only":
        stub = task.question_files.get(f"op_kernel/{k}.cpp", "")
        return f"<kernel_impl>\n{_fence(stub, 'cpp')}\n</kernel_impl>"
    host = task.question_files.get(f"op_host/{k}.cpp", "")
    host = re.sub(r"^.*SetBlockDim\(.*\);\s*\n", "", host, flags=re.M)   # the model chooses the core count
    stub = task.question_files.get(f"op_kernel/{k}.cpp", "")
    tiling = f"// BEGIN_TILING_DATA_DEF(TilingData) ... REGISTER_TILING_DATA_CLASS({task.op_name}, TilingData)"
    return "\n\n".join(f"================== {path} ==================\n{_fence(body, 'cpp')}"
                       for path, body in ((f"op_host/{k}_tiling.h", tiling), (f"op_host/{k}.cpp", host),
                                          (f"op_kernel/{k}.cpp", stub)))


def build_prompt(task: Task, *, template: str = "kernel-only", shape_mode: str = "static",
                 cases: list[TestCase] | None = None, max_cases: int | None = None,
                 hardware: str = DEFAULT_HARDWARE) -> str:
    """The single user message for generating `task` (no system prompt, as in the reference harness)."""
    if template not in TEMPLATES:
        raise ValueError(f"template must be one of {TEMPLATES}, got {template!r}")
    cases = cases if cases is not None else select_cases(task, shape_mode, max_cases)
    k = task.kernel_name
    reqs = _REQ_COMMON + [r.format(kernel=k, op=task.op_name, cores=_cores(task))
                          for r in (_REQ_KERNEL_ONLY if template == "kernel-only" else _REQ_FULL)]
    fmt = ("Put the complete kernel file inside one <kernel_impl> block containing a ```cpp fence, after your "
           "reasoning." if template == "kernel-only" else
           "Give the three files after your reasoning, each as a '================== <path> =================='"
           " header line followed by a ```cpp fence, in the order shown.")
    mode = ("The kernel is built for the shape of the test case below (static shape)."
            if shape_mode == "static" else
            "One build must pass every test case below; shapes differ between cases (dynamic shape).")
    parts = [
        "# Instructions\n" + _INSTRUCTIONS + "\n- Output format: " + fmt,
        "# Implementation requirements\n" + "\n".join(f"{i}. {r}" for i, r in enumerate(reqs, 1)),
        "# api_desc.md\n" + _fence(api_desc_for(task, cases, shape_mode), "markdown"),
        f"# Test cases (test_cases.csv, ';'-separated)\n{mode}\n" + _fence(render_cases(task, cases), "csv"),
        "# Hardware (hardware.txt)\n" + _fence(hardware, "text"),
        "# Host template\n" + _fence(task.question_files.get(f"op_host/{k}.cpp", ""), "cpp"),
        "# Kernel template\n" + _fence(task.question_files.get(f"op_kernel/{k}.cpp", ""), "cpp"),
        "# Output template\n" + output_template(task, template),
        "# Your task\nAnalyse the specification, the dtypes and shapes of the test cases and the hardware; "
        "reason about the tiling and the data movement; then give the answer in the output template's format.",
    ]
    return "\n\n".join(parts) + "\n"


def prompt_sha256(prompt: str) -> str:
    return hashlib.sha256(prompt.encode()).hexdigest()
