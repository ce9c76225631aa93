"""AscendC sources parsed as C++ with tree-sitter-cpp: shared by the device-code lint (bench) and the CoT pipeline.

tree-sitter reads AscendC once the device-only syntax is blanked (`__aicore__`, `__gm__`, `[aicore]`, `extern "C"`,
`if ASCEND_IS_AIV`, ... give ERROR nodes otherwise). Blanking keeps every byte offset, so node positions (and line
and column numbers) still index the original file.
"""
from __future__ import annotations

import re
from functools import lru_cache

_DEVICE_TOKENS = re.compile(r"\b__(?:aicore|global|gm|ubuf|cbuf|ca|cb|cc|fbuf|inline|sync_alias|sync_noalias|"
                            r"sync_in|sync_out|simt_vf|simt_callee|simd_vf|no_simt|forceinline)__\b|\[aicore\]"
                            r'|\bextern\s+"C"')
_IF_CORE = re.compile(r"\bif\s+ASCEND_IS_(?:AIC|AIV|NOT_AIC|NOT_AIV)\b")


def blank_device_syntax(src: str) -> str:
    src = _DEVICE_TOKENS.sub(lambda m: " " * len(m.group(0)), src)
    # `if ASCEND_IS_AIV {` (the macro supplies the parentheses) -> `if(1)        {`
    return _IF_CORE.sub(lambda m: "if(1)".ljust(len(m.group(0))), src)


@lru_cache(maxsize=1)
def parser():
    """A tree-sitter C++ parser, or None when tree-sitter / tree-sitter-cpp are not installed or incompatible."""
    try:
        import tree_sitter_cpp
        from tree_sitter import Language, Parser
        return Parser(Language(tree_sitter_cpp.language()))
    except (ImportError, OSError, ValueError, TypeError, AttributeError):
        return None


def parse(src: str):
    p = parser()
    if p is None:
        raise RuntimeError("tree-sitter-cpp is not installed (pip install 'ascend-kernelgen[bench]')")
    return p.parse(blank_device_syntax(src).encode("utf-8"))


def walk(node):
    """Every node under `node`, depth first, in source order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))
