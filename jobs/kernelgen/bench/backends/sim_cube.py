"""Cube (AIC) and mixed kernels for the `sim` backend.

bisheng compiles a kernel that uses the cube once per core type (g_coreType is a constexpr AIC or AIV) and infers
from the object code which cores a launch starts. The simulator does the same with two translation units per dtype
combination and infers the kernel type from the source:
  - no cube API                                    -> KERNEL_TYPE_AIV_ONLY (the tier-1 path, one TU)
  - cube API and no AIV-only code                  -> KERNEL_TYPE_AIC_ONLY (AIC TU only)
  - cube API and AIV code (ASCEND_IS_AIV, AIV
    specialisations, sub-blocks, cross-core flags) -> KERNEL_TYPE_MIX_AIC_1_2 (both TUs, 1 AIC + 2 AIV per AI core)
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_...) in the source overrides the inference.
"""
from __future__ import annotations

import re

KERNEL_TYPES = {"KERNEL_TYPE_AIV_ONLY": 0, "KERNEL_TYPE_AIC_ONLY": 1, "KERNEL_TYPE_MIX_AIV_1_0": 2,
                "KERNEL_TYPE_MIX_AIC_1_0": 3, "KERNEL_TYPE_MIX_AIC_1_1": 4, "KERNEL_TYPE_MIX_AIC_1_2": 5}

_CUBE_RX = re.compile(r"\b(Mmad|LoadData|LoadDataWithTranspose|Fixpipe|Nd2NzParams|LoadData2DParams|"
                      r"TPosition::(?:A1|A2|B1|B2|CO1|C2)|QuePosition::(?:A1|A2|B1|B2|CO1|C2)|MatmulImpl|REGIST_MATMUL_OBJ)\b")
# Cube work written with the basic API (the AIC runs kernel code); the high-level matmul::Matmul alone instead makes
# the AIC a matmul server, which the simulator models on the AIV (lib: ascsim/kernel/matmul_api.h): its AIC idles.
_LOWLEVEL_CUBE_RX = re.compile(r"\b(Mmad|LoadData|LoadDataWithTranspose|Fixpipe|Nd2NzParams|LoadData2DParams|"
                               r"TPosition::(?:A1|A2|B1|B2|CO1|C2)|QuePosition::(?:A1|A2|B1|B2|CO1|C2))\b")
_MATMUL_API_RX = re.compile(r"\b(REGIST_MATMUL_OBJ|matmul::Matmul|MatmulImpl)\b")
_AIV_RX = re.compile(r"\b(ASCEND_IS_AIV|ASCEND_IS_NOT_AIC|AscendC::AIV|g_coreType\s*==\s*(?:AscendC::)?AIV|GetSubBlockIdx|"
                     r"GetSubBlockNum|CrossCoreSetFlag|CrossCoreWaitFlag|REGIST_MATMUL_OBJ)\b")
_OVERRIDE_RX = re.compile(r"KERNEL_TASK_TYPE_DEFAULT\s*\(\s*(?:AscendC::)?(KERNEL_TYPE_\w+)\s*\)")
# An explicit specialisation of a member template for one core type, written inside the class (clang accepts it,
# g++ does not): `template <> [attrs] void operator()<AscendC::AIC>(` ...
_MEMBER_SPEC_RX = re.compile(r"template\s*<\s*>\s*((?:__forceinline__|__aicore__|inline|\s)*)void\s+operator\s*\(\s*\)\s*"
                             r"<\s*(?:AscendC::)?(AIC|AIV)\s*>\s*\(")


_COMMENT_RX = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"", re.S)


def _code(texts: list[str]) -> str:
    """The sources without comments and string literals (a comment that mentions Mmad is not cube code)."""
    return _COMMENT_RX.sub(" ", "\n".join(texts))


def kernel_type(texts: list[str]) -> int:
    """KernelMetaType value of the kernel whose sources are `texts` (see the module docstring)."""
    joined = _code(texts)
    m = _OVERRIDE_RX.search(joined)
    if m and m.group(1) in KERNEL_TYPES:
        return KERNEL_TYPES[m.group(1)]
    if not _CUBE_RX.search(joined):
        return KERNEL_TYPES["KERNEL_TYPE_AIV_ONLY"]
    if _AIV_RX.search(joined):
        return KERNEL_TYPES["KERNEL_TYPE_MIX_AIC_1_2"]
    return KERNEL_TYPES["KERNEL_TYPE_AIC_ONLY"]


def aic_idle(texts: list[str]) -> bool:
    """True when the kernel's only cube work is the high-level matmul API (its AIC is an idle matmul server)."""
    joined = _code(texts)
    return bool(_MATMUL_API_RX.search(joined)) and not _LOWLEVEL_CUBE_RX.search(joined)


def builds_of(ktype: int, idle_aic: bool = False) -> list[str]:
    """Core types to compile for a kernel type."""
    if ktype in (0, 2) or idle_aic:
        return ["AIV"]
    if ktype in (1, 3):
        return ["AIC"]
    return ["AIV", "AIC"]


# A call naming the core explicitly, `obj.template operator()<g_coreType>(...)`: with explicit template arguments only
# the (declared, never defined) primary template is a candidate, so the call must name the rewritten member instead.
_MEMBER_CALL_RX = re.compile(r"(\.|->)\s*template\s+operator\s*\(\s*\)\s*<\s*((?:AscendC::)?(?:AIC|AIV)|g_coreType)\s*>\s*\(")


def specialize_for_core(text: str, core: str) -> str:
    """Turn in-class `template <> void operator()<AIC|AIV>(...)` specialisations into a plain overload for the
    core being compiled (preferred over the primary template) and a dead, renamed member for the other core; calls
    that name a core type explicitly go to the matching member."""
    def sub(m: re.Match) -> str:
        attrs, which = m.group(1), m.group(2)
        name = "operator()" if which == core else f"ascsim_other_core_{which}"
        return f"{attrs}void {name}("

    def call(m: re.Match) -> str:
        which = m.group(2).split("::")[-1]
        which = core if which == "g_coreType" else which
        return f"{m.group(1)}{'operator()' if which == core else f'ascsim_other_core_{which}'}("
    return _MEMBER_CALL_RX.sub(call, _MEMBER_SPEC_RX.sub(sub, text))


def core_prologue(core: str) -> str:
    """Declarations placed at the top of the per-TU kernel namespace: kernels may reopen `namespace AscendC`, and
    `g_coreType` / `ASCEND_IS_AIC` must be the constexpr core type of this build."""
    ct = "::AscendC::AIC" if core == "AIC" else "::AscendC::AIV"
    # catlass-style sources also reopen `namespace std` (device code has no STL): keep ::std reachable through it.
    # The device compiler's scalar min/max live at global scope, which for the kernel is this namespace: declared
    # here they meet the kernel's own `using namespace tla;` (whose min/max lands in this namespace) in one overload
    # set, as at global scope on the device. std's min/max are declared in the local `std` so that a kernel's
    # `using namespace std;` brings them to this same level too.
    return (f"namespace AscendC {{ using namespace ::AscendC; constexpr int32_t g_coreType = {ct}; }}\n"
            "namespace std { using namespace ::std; using ::std::min; using ::std::max; }\n"
            "using ::min;\nusing ::max;\n"
            "using AscendC::g_coreType;\nusing ::AscendC::GetTPipePtr;\n")


def registration(core: str, op: str, ncols: int, ktype: int) -> str:
    """The registration statement for the AIC object (the AIV object keeps the tier-1 registration)."""
    return (f"const int kRegCube = (::ascsim::register_cube_kernel(\"{op}\", kColumns, {ncols}, &ascsim_launch, {ktype}), 0);"
            if core == "AIC" else "")


def extra_registration(core: str, op: str, ncols: int, ktype: int, idle_aic: bool) -> str:
    """For a matmul-API kernel: the AIV object also registers the idle AIC of its mixed launch."""
    if core != "AIV" or not idle_aic:
        return ""
    return ("void ascsim_idle_aic(uint8_t**, size_t) {}\n"
            f"const int kRegIdleAic = (::ascsim::register_cube_kernel(\"{op}\", kColumns, {ncols}, &ascsim_idle_aic, {ktype}), 0);")
