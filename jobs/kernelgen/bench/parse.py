"""Extract candidate files from a model response.

Unlike the reference harness (first regex match over reasoning + answer), we split off the reasoning first
(everything up to the LAST ``</think>``) and take the LAST well-formed block of the answer, so drafts inside
the reasoning never win. When nothing can be extracted, `ParsedResponse.error` says why.

Formats:
- kernel-only: ``<kernel_impl> ```cpp ... ``` </kernel_impl>`` -> ``op_kernel/<kernel>.cpp``
  (the host file later comes from the task's question template);
- full: three blocks, each a ``===== <path> =====`` header followed by a fenced block, for
  ``op_host/<kernel>_tiling.h``, ``op_host/<kernel>.cpp`` and ``op_kernel/<kernel>.cpp``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
_FENCE = re.compile(r"(?P<ticks>`{3,})[ \t]*(?P<lang>[\w+#.-]*)[^\n]*\n(?P<body>.*?)\n?(?P=ticks)", re.S)
_KERNEL_IMPL = re.compile(r"<kernel_impl>(?P<body>.*?)</kernel_impl>", re.S)
_HEADER = re.compile(r"^[ \t]*={3,}[ \t]*(?P<path>op_(?:host|kernel)/[\w./-]+?)[ \t]*={3,}[ \t]*$", re.M)


@dataclass
class ParsedResponse:
    files: dict[str, str] = field(default_factory=dict)
    error: str = ""
    reasoning: str = ""
    answer: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


def split_reasoning(text: str, reasoning: str = "") -> tuple[str, str, str]:
    """(reasoning, answer, error). `reasoning` is what a server already split off (reasoning parser)."""
    if THINK_CLOSE in text:
        cut = text.rindex(THINK_CLOSE)
        head = text[:cut]
        head = head[head.index(THINK_OPEN) + len(THINK_OPEN):] if THINK_OPEN in head else head
        return (reasoning + head).strip(), text[cut + len(THINK_CLOSE):], ""
    if THINK_OPEN in text:
        before, _, inside = text.partition(THINK_OPEN)
        if before.strip():
            return reasoning, text, ""
        return (reasoning + inside).strip(), "", ("the response ended inside <think> (no </think>): the model "
                                                  "never finished reasoning, so there is no answer to parse")
    return reasoning.strip(), text, ""


def _code_of(body: str) -> str:
    fences = list(_FENCE.finditer(body))
    if fences:
        preferred = [f for f in fences if f.group("lang").lower() in ("cpp", "c++", "cc", "c", "")]
        return (preferred or fences)[0].group("body")
    return body


def parse_kernel_only(answer: str, kernel_name: str) -> tuple[dict[str, str], str]:
    blocks = list(_KERNEL_IMPL.finditer(answer))
    if not blocks:
        if "<kernel_impl>" in answer:
            return {}, "found <kernel_impl> but no closing </kernel_impl> after the reasoning (truncated output?)"
        hint = " (there is a code fence, but outside any <kernel_impl> block)" if "```" in answer else ""
        return {}, f"no <kernel_impl>...</kernel_impl> block after the reasoning{hint}"
    for block in reversed(blocks):
        code = _code_of(block.group("body")).strip("\n")
        if code.strip():
            return {f"op_kernel/{kernel_name}.cpp": code + "\n"}, ""
    return {}, "every <kernel_impl> block after the reasoning is empty"


def parse_full(answer: str, kernel_name: str) -> tuple[dict[str, str], str]:
    expected = [f"op_host/{kernel_name}_tiling.h", f"op_host/{kernel_name}.cpp", f"op_kernel/{kernel_name}.cpp"]
    headers = list(_HEADER.finditer(answer))
    found: dict[str, str] = {}
    problems: list[str] = []
    for i, h in enumerate(headers):
        path = h.group("path")
        end = headers[i + 1].start() if i + 1 < len(headers) else len(answer)
        section = answer[h.end():end]
        fence = _FENCE.search(section)
        if fence is None or not fence.group("body").strip():
            problems.append(f"{path}: header without a non-empty code fence after it")
            continue
        found[path] = fence.group("body").strip("\n") + "\n"   # later blocks replace earlier drafts
    missing = [p for p in expected if p not in found]
    if missing:
        msg = f"missing file block(s) after the reasoning: {', '.join(missing)}"
        if problems:
            msg += "; " + "; ".join(problems)
        if not headers:
            msg += " (no '================== <path> ==================' headers found)"
        return {}, msg
    return {p: found[p] for p in expected}, ""


def parse_response(text: str, kernel_name: str, template: str = "kernel-only", *,
                   reasoning: str = "") -> ParsedResponse:
    """Parse a response (content, possibly with an inline <think> block) for the given template."""
    if text is None or not str(text).strip():
        return ParsedResponse(error="empty response", reasoning=reasoning)
    r, answer, err = split_reasoning(str(text), reasoning)
    if err:
        return ParsedResponse(error=err, reasoning=r, answer=answer)
    if template == "kernel-only":
        files, err = parse_kernel_only(answer, kernel_name)
    elif template == "full":
        files, err = parse_full(answer, kernel_name)
    else:
        raise ValueError(f"unknown template {template!r}")
    return ParsedResponse(files=files, error=err, reasoning=r, answer=answer)
