"""Tiling template programming for the `sim` backend.

An operator written this way declares its template parameters and their selected combinations in a header shared by
op_host and op_kernel (ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL), and its kernel entry is a function template with one
template parameter per declared parameter, in declaration order. The host packs a combination into the tiling key
(GET_TPL_TILING_KEY); the device build makes one kernel per selected combination, and the key picks it at launch.
The simulator's host dump (sim/src/opdump.cpp, from sim/include/ascsim/host/tpl.h) lists the combinations with their
keys; this module turns them into instantiations of the entry and a registration per key in each kernel TU.
"""
from __future__ import annotations

import re

from ..model import CompileErrorClass
from .build_sandbox import BuildError

DATATYPE = 7            # ascsim::tpl::DATATYPE: a native data type, passed to the kernel as a C++ type
INPUT_REF, OUTPUT_REF = 100000000, 900000000   # ASCENDC_TPL_INPUT(i) / ASCENDC_TPL_OUTPUT(i)
# ASCENDC_TPL_KERNEL_TYPE_SEL values (ASCENDC_TPL_AIV_ONLY ...) -> sim_cube.KERNEL_TYPES values
KERNEL_TYPES = {0: 0, 1: 1, 4: 2, 5: 3, 6: 4, 7: 5}

_TEMPLATE_ENTRY_RX = r'template\s*<[^{{}};]*>\s*(?:extern\s*"C"\s*)?(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+{name}\s*\('


def is_template_entry(text: str, kernel_name: str) -> bool:
    """Whether the kernel entry in `text` is a function template (a tiling-template kernel)."""
    return re.search(_TEMPLATE_ENTRY_RX.format(name=re.escape(kernel_name)), text) is not None


def declaration(dump: dict, op: str) -> dict:
    """The op's tiling-template declaration from the host dump (the only one, when it is named otherwise)."""
    tpl = dump.get("tpl")
    tpl = tpl if isinstance(tpl, dict) else {}
    decl = tpl.get(op) or (next(iter(tpl.values())) if len(tpl) == 1 else None)
    if decl is None:
        raise BuildError(f"error: the kernel entry of '{op}' is a template, but no ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL "
                         "reached the host build: include the tiling-key header from op_host (the host computes the "
                         "key with GET_TPL_TILING_KEY)", error_class=CompileErrorClass.MACRO)
    if not _well_formed(decl):   # the dump came out of candidate host code
        raise BuildError(f"error: tiling template of '{op}': the host registration produced no usable declaration",
                         error_class=CompileErrorClass.MACRO)
    if decl.get("error"):
        raise BuildError(f"error: tiling template of '{op}': {decl['error']}", error_class=CompileErrorClass.MACRO)
    if not decl.get("instances"):
        raise BuildError(f"error: tiling template of '{op}': ASCENDC_TPL_SEL selects no combination",
                         error_class=CompileErrorClass.MACRO)
    return decl


def _well_formed(decl) -> bool:
    def uint(v) -> bool:
        return type(v) is int and 0 <= v < 2 ** 64
    if not isinstance(decl, dict) or not isinstance(decl.get("error", ""), str):
        return False
    try:
        params, insts = decl["params"], decl["instances"]
        return (all(uint(p["kind"]) and uint(p["offset"]) and p["offset"] < 64 and isinstance(p["name"], str) for p in params)
                and all(len(i["args"]) == len(params) and all(uint(a) for a in i["args"]) and uint(i["key"])
                        and type(i["kernel_type"]) is int for i in insts))
    except (KeyError, TypeError):
        return False


def kernel_type(decl: dict, inferred: int) -> int:
    """The kernel type ASCENDC_TPL_KERNEL_TYPE_SEL sets (it replaces KERNEL_TASK_TYPE_DEFAULT), else `inferred`."""
    types = {i["kernel_type"] for i in decl["instances"]}
    if types == {-1}:
        return inferred
    if len(types) != 1 or not types <= KERNEL_TYPES.keys():
        raise BuildError(f"error: tiling template: kernel types {sorted(types)} in one operator are not simulated (one "
                         "ASCENDC_TPL_KERNEL_TYPE_SEL of AIV_ONLY, AIC_ONLY, MIX_AIV_1_0, MIX_AIC_1_0/1_1/1_2 is)",
                         error_class=CompileErrorClass.OTHER)
    return KERNEL_TYPES[types.pop()]


def instances(decl: dict, opdef: dict, column: int, ctypes: dict[int, str]) -> list[tuple[str, int]]:
    """(template arguments, tiling key) of each selected combination in the build of one dtype column: a data type
    given as ASCENDC_TPL_INPUT/OUTPUT(i) is that tensor's dtype in the column, and its bits join the key here."""
    out: dict[int, str] = {}
    for inst in decl["instances"]:
        key, args = int(inst["key"]), []
        for param, value in zip(decl["params"], inst["args"]):
            if param["kind"] != DATATYPE:
                args.append(str(value) if value < 2 ** 31 else f"{value}ULL")
                continue
            if value >= INPUT_REF:
                side, idx = ("outputs", value - OUTPUT_REF) if value >= OUTPUT_REF else ("inputs", value - INPUT_REF)
                tensors = opdef.get(side, [])
                if idx >= len(tensors) or not tensors[idx]["dtypes"]:
                    raise BuildError(f"error: tiling template parameter {param['name']} refers to {side[:-1]} {idx}, "
                                     "which the OpDef does not have", error_class=CompileErrorClass.MACRO)
                dtypes = tensors[idx]["dtypes"]
                value = dtypes[min(column, len(dtypes) - 1)]
                key |= value << param["offset"]
            if value not in ctypes:
                raise BuildError(f"error: tiling template parameter {param['name']}: data type {value} is not simulated",
                                 error_class=CompileErrorClass.DATA_TYPE)
            args.append(ctypes[value])
        rendered = ", ".join(args)
        if out.setdefault(key, rendered) != rendered:
            raise BuildError(f"error: tiling template: two selected combinations share tiling key {key}",
                             error_class=CompileErrorClass.MACRO)
    return [(args, key) for key, args in out.items()]


def launchers(ns: str, kernel_name: str, op: str, ncolumns: int, insts: list[tuple[str, int]], core: str, ktype: int,
              aic_idle: bool) -> str:
    """One launcher and one registration (under its key) per instantiation of the entry template: the AIC build of a
    cube kernel registers its cube entries, and a matmul-API kernel's AIV build also its idle AIC (see sim_cube)."""
    parts = ["void ascsim_idle_aic(uint8_t**, size_t) {}"] if core == "AIV" and aic_idle else []
    for i, (args, key) in enumerate(insts):
        parts.append(f"void ascsim_launch_{i}(uint8_t** a, size_t n) {{ ::ascsim::invoke_entry(&{ns}::ascsim_entry_{kernel_name}<{args}>, a, n); }}\n"
                     f"const uint64_t kKeys{i}[] = {{{key}ULL}};")
        if core == "AIC":
            parts.append(f"const int kReg{i} = (::ascsim::register_cube_kernel(\"{op}\", kColumns, {ncolumns}, &ascsim_launch_{i}, "
                         f"{ktype}, kKeys{i}, 1), 0);")
            continue
        parts.append(f"const int kReg{i} = (::ascsim::register_kernel(\"{op}\", kColumns, {ncolumns}, &ascsim_launch_{i}, kKeys{i}, 1), 0);")
        if aic_idle:
            parts.append(f"const int kRegIdle{i} = (::ascsim::register_cube_kernel(\"{op}\", kColumns, {ncolumns}, &ascsim_idle_aic, "
                         f"{ktype}, kKeys{i}, 1), 0);")
    return "\n".join(parts)
