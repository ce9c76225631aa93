"""Map compiler diagnostics to the paper's compile-error classes (CompileErrorClass), and NPU runtime failures
(CANN error codes, AI Core exception texts) to typed runtime verdicts.

The first `error:` line decides (it is what the model is told to fix); g++ and clang/bisheng/ccec spellings are
recognised. Backends call `classify_compile_error(log)` and `classify_runtime_error(text)`; nothing else should
re-implement this. The rules are checked against real texts from public issue threads in tests/ascend/data.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .model import CompileErrorClass, Verdict

_MEMORY_OBJECTS = r"(LocalTensor|GlobalTensor|TPipe|TQue|TQueBind|TBuf|TBufPool)"
_RULES: list[tuple[CompileErrorClass, re.Pattern[str]]] = [
    # clang/bisheng: a name missing from a namespace is a scope error even when the name is GlobalTensor & co.
    (CompileErrorClass.SCOPE, re.compile(r"no member named '[^']*' in namespace|does not refer to a value|"
                                         r"no template named|unknown type name")),
    # a failed #include is a preprocessing error (clang: "'x.h' file not found"; g++: "No such file or directory")
    (CompileErrorClass.MACRO, re.compile(r"#include[^\n]*\n?[^\n]*file not found|fatal error: '[^']*' file not found|"
                                         r"fatal error: [^\n]*: No such file or directory")),
    (CompileErrorClass.DATA_TYPE, re.compile(r"cannot be narrowed|non-constant-expression cannot be narrowed")),
    (CompileErrorClass.MACRO, re.compile(
        r"GET_TILING_DATA|TILING_KEY_IS|REGISTER_TILING_DEFAULT|unterminated argument list invoking macro|"
        r"macro .* (passed|requires)|#error|BEGIN_TILING_DATA_DEF|TILING_DATA_FIELD_DEF|REGISTER_TILING_DATA_CLASS|"
        r"no tiling (struct|class)", re.IGNORECASE)),
    (CompileErrorClass.MEMORY_OBJECT, re.compile(
        rf"(no member named|has no member named|is not a member of)[^\n]*{_MEMORY_OBJECTS}|{_MEMORY_OBJECTS}[^\n]*"
        r"(has no member named|no member named)|(InitBuffer|AllocTensor|DeQue|EnQue|FreeTensor|SetGlobalBuffer)\b")),
    (CompileErrorClass.DATA_TYPE, re.compile(
        r"Failed to check dtype|CastIntrinsicsImpl|static assert|static_assert|invalid conversion|cannot convert|"
        r"no viable conversion|conflicting types|narrowing conversion|cannot initialize|invalid operands|"
        r"incompatible type|ambiguous conversion|invalid cast", re.IGNORECASE)),
    (CompileErrorClass.API_SIGNATURE, re.compile(
        r"no matching (member )?function|too (many|few) arguments|candidate expects|wrong number of template arguments|"
        r"no matching constructor|call of overloaded .* is ambiguous|call to .* is ambiguous|"
        r"template argument deduction/substitution failed|could not match", re.IGNORECASE)),
    (CompileErrorClass.SCOPE, re.compile(
        r"was not declared in this scope|undeclared identifier|is not a member of|no member named|does not name a type|"
        r"undefined reference|use of undeclared|not declared|unknown type name|has not been declared|"
        r"no type named|kernel entry .* not found|no OpDef|OP_ADD", re.IGNORECASE)),
    (CompileErrorClass.SYNTAX, re.compile(
        r"expected|stray|missing terminating|incomplete type|invalid use of incomplete|redefinition|"
        r"conflicting declaration|duplicate|extra qualification|lvalue required|parse error", re.IGNORECASE)),
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


def first_errors(log: str, lines: int = 3) -> str:
    """The first `error:` / `#error` lines of a compiler log: the cause, where the tail holds only notes."""
    found = [m.group(0).strip() for m in _ERROR_LINE.finditer(log or "")]
    return "\n".join(found[:lines])


def clip_log(log: str, limit: int) -> str:
    """At most `limit` characters of `log`, keeping its head (the first errors) and its tail (the last step)."""
    if len(log) <= limit:
        return log
    head = limit // 2
    cut = len(log) - limit
    return f"{log[:head]}\n[... {cut} characters cut ...]\n{log[len(log) - (limit - head):]}"


# ------------------------------------------------------------------------------------------ NPU runtime errors --
class RuntimeErrorKind(str, enum.Enum):
    """What went wrong on the device, as far as CANN's error texts and codes tell."""

    OUT_OF_MEMORY = "out_of_memory"          # NPU allocator / runtime 207001
    AICORE_TIMEOUT = "aicore_timeout"        # 507014 (AI Core), 507034 (vector core), "[aicore timeout]"
    AICORE_EXCEPTION = "aicore_exception"    # 507015/507035, "aicore exception", "aivec error"
    AICPU_EXCEPTION = "aicpu_exception"      # "[aicpu exception]"
    DMA_ERROR = "dma_error"                  # 507013 system DMA hardware error
    DRIVER_ERROR = "driver_error"            # 507899 driver internal error, halXxx failures
    KERNEL_NOT_FOUND = "kernel_not_found"    # no binary for the op, aclnn symbol/library missing (561003, 5611xx)
    TILING_ERROR = "tiling_error"            # 561002 host tiling failed
    PARAM_INVALID = "param_invalid"          # 161001/161002 (aclnn), 100000 (acl)
    ENV_ERROR = "env_error"                  # CANN environment could not initialise (the harness's fault)
    UNKNOWN = "unknown"                      # some CANN error without a recognised cause


@dataclass(frozen=True)
class RuntimeFault:
    kind: RuntimeErrorKind
    verdict: Verdict
    device_suspect: bool        # the device may be left unusable: run the canary before reusing it
    code: int | None = None     # the first CANN/aclnn error code found in the text


# kind, verdict, device_suspect, pattern -- first match wins, so the root cause goes before its consequences
# (an allocation failure reported through a DMA error is an out-of-memory, a timeout report says "trap error" too)
_RUNTIME_RULES: list[tuple[RuntimeErrorKind, Verdict, bool, re.Pattern[str]]] = [
    (RuntimeErrorKind.OUT_OF_MEMORY, Verdict.MEMORY_EXCEEDED, False, re.compile(
        r"NPU out of memory|\b207001\b|Failed to allocate memory|ACL_ERROR_RT_MEMORY_ALLOCATION", re.IGNORECASE)),
    (RuntimeErrorKind.AICORE_TIMEOUT, Verdict.TIMEOUT, True, re.compile(
        r"\[(aicore|vector core|aiv) timeout\]|aicore execution times? out|execution timed? out|\b50701[4]\b|\b507034\b|"
        r"ACL_ERROR_RT_(AICORE|VECTOR_CORE)_TIMEOUT", re.IGNORECASE)),
    (RuntimeErrorKind.AICORE_EXCEPTION, Verdict.RUNTIME_ERROR, True, re.compile(
        r"aicore exception|aicore error|aivec error|vector core execution is abnormal|aicore execution is abnormal|"
        r"\b50701[56]\b|\b50703[56]\b|ACL_ERROR_RT_(AICORE|VECTOR_CORE)_(EXCEPTION|TRAP)", re.IGNORECASE)),
    (RuntimeErrorKind.AICPU_EXCEPTION, Verdict.RUNTIME_ERROR, True, re.compile(
        r"aicpu exception|aicpu kernel execute failed|\b50701[78]\b", re.IGNORECASE)),
    (RuntimeErrorKind.DMA_ERROR, Verdict.RUNTIME_ERROR, True, re.compile(
        r"\b507013\b|Direct Memory Access \(DMA\) hardware|sdma error", re.IGNORECASE)),
    (RuntimeErrorKind.DRIVER_ERROR, Verdict.INFRA_ERROR, True, re.compile(
        r"\b507899\b|internal error occurs in the Driver|\[drv api\]|driver error", re.IGNORECASE)),
    (RuntimeErrorKind.KERNEL_NOT_FOUND, Verdict.LOAD_ERROR, False, re.compile(
        r"does not ha(s|ve) any binary|\b561003\b|\b56110[78]\b|\b56111[12]\b|not in lib(cust_)?opapi\.so|"
        r"lib(cust_)?opapi\.so ?not found|undefined symbol: aclnn|GetWorkspaceSize[^\n]*not found|"
        r"cannot open shared object file", re.IGNORECASE)),
    (RuntimeErrorKind.TILING_ERROR, Verdict.RUNTIME_ERROR, False, re.compile(r"\b561002\b|tiling (func )?failed", re.IGNORECASE)),
    (RuntimeErrorKind.PARAM_INVALID, Verdict.RUNTIME_ERROR, False, re.compile(
        r"\b16100[12]\b|ACLNN_ERR_PARAM|(error )?code(:| is)? ?100000\b|ACL_ERROR_INVALID_PARAM", re.IGNORECASE)),
    (RuntimeErrorKind.ENV_ERROR, Verdict.INFRA_ERROR, False, re.compile(
        r"init env failed|\b500001\b|ASCEND_OPP_PATH[^\n]*not|set_env\.sh", re.IGNORECASE)),
    (RuntimeErrorKind.UNKNOWN, Verdict.RUNTIME_ERROR, False, re.compile(
        r"E[ZHLE]\d{4}|Inner Error|NPU function error|NPU error|error code is \d+|ACL error|result = \d{6}", re.IGNORECASE)),
]
_CODE = re.compile(r"(?:error code(?: is)?|errno|code|result|retCode)\s*[:=]?\s*(?:is\s*:?\s*)?(\d{6})\b", re.IGNORECASE)


def classify_runtime_error(text: str) -> RuntimeFault | None:
    """Typed verdict for a failure text from the NPU stack (torch_npu/CANN), or None if it is not one."""
    if not text:
        return None
    m = _CODE.search(text)
    code = int(m.group(1)) if m else None
    for kind, verdict, suspect, rx in _RUNTIME_RULES:
        if rx.search(text):
            return RuntimeFault(kind, verdict, suspect, code)
    return None
