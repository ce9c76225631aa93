"""Map compiler diagnostics to the paper's compile-error classes (CompileErrorClass).

The first `error:` line decides (it is what the model is told to fix); g++ and clang/bisheng spellings are both
recognised. Backends call `classify_compile_error(log)`; nothing else should re-implement this.
"""
from __future__ import annotations

import re

from .model import CompileErrorClass

_MEMORY_OBJECTS = r"(LocalTensor|GlobalTensor|TPipe|TQue|TQueBind|TBuf|TBufPool)"
_RULES: list[tuple[CompileErrorClass, re.Pattern[str]]] = [
    (CompileErrorClass.MACRO, re.compile(
        r"GET_TILING_DATA|TILING_KEY_IS|ASCSIM_DEFAULT_TILING_STRUCT|unterminated argument list invoking macro|"
        r"macro .* (passed|requires)|#error|BEGIN_TILING_DATA_DEF|TILING_DATA_FIELD_DEF|REGISTER_TILING_DATA_CLASS|"
        r"no tiling (struct|class)", re.I)),
    (CompileErrorClass.MEMORY_OBJECT, re.compile(
        rf"(no member named|has no member named|is not a member of)[^\n]*{_MEMORY_OBJECTS}|{_MEMORY_OBJECTS}[^\n]*"
        r"(has no member named|no member named)|(InitBuffer|AllocTensor|DeQue|EnQue|FreeTensor|SetGlobalBuffer)\b")),
    (CompileErrorClass.DATA_TYPE, re.compile(
        r"Failed to check dtype|CastIntrinsicsImpl|static assert|static_assert|invalid conversion|cannot convert|"
        r"no viable conversion|conflicting types|narrowing conversion|cannot initialize|invalid operands|"
        r"incompatible type|ambiguous conversion|invalid cast", re.I)),
    (CompileErrorClass.API_SIGNATURE, re.compile(
        r"no matching (member )?function|too (many|few) arguments|candidate expects|wrong number of template arguments|"
        r"no matching constructor|call of overloaded .* is ambiguous|call to .* is ambiguous|"
        r"template argument deduction/substitution failed|could not match", re.I)),
    (CompileErrorClass.SCOPE, re.compile(
        r"was not declared in this scope|undeclared identifier|is not a member of|no member named|does not name a type|"
        r"undefined reference|use of undeclared|not declared|unknown type name|has not been declared|"
        r"no type named|kernel entry .* not found|no OpDef|OP_ADD", re.I)),
    (CompileErrorClass.SYNTAX, re.compile(
        r"expected|stray|missing terminating|incomplete type|invalid use of incomplete|redefinition|"
        r"conflicting declaration|duplicate|extra qualification|lvalue required|parse error", re.I)),
]

_ERROR_LINE = re.compile(r"(?:^|\n)[^\n]*?\b(?:fatal )?error:([^\n]*)")


def classify_compile_error(log: str) -> CompileErrorClass:
    """Class of the first diagnostic in `log` (CompileErrorClass.OTHER if nothing matches)."""
    if not log:
        return CompileErrorClass.OTHER
    m = _ERROR_LINE.search(log)
    candidates = [m.group(0)] if m else []
    candidates.append(log[:4000])
    for text in candidates:
        for cls, rx in _RULES:
            if rx.search(text):
                return cls
    return CompileErrorClass.OTHER
