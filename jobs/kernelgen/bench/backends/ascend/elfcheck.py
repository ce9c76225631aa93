"""Symbol-origin check: the aclnn entry points a candidate's binding calls must be DEFINED by the candidate's own
libcust_opapi.so, and NOT by the binding extension itself (a binding that defines `aclnn<Op>` could run anything,
e.g. a built-in kernel, under the candidate's name).

Read from the ELF dynamic symbol tables with pyelftools (a parser; nothing is loaded or executed). At run time the
binding helper (helper/pytorch_npu_helper.hpp) dlopens the verified library by absolute path and checks with dladdr
that the resolved symbols come from that file.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile


class SymbolOriginError(Exception):
    """The aclnn symbols do not come from the candidate's own op-API library."""


@dataclass
class DynInfo:
    defined: set[str] = field(default_factory=set)      # exported (GLOBAL/WEAK, defined) function/object symbols
    undefined: set[str] = field(default_factory=set)    # imports
    needed: list[str] = field(default_factory=list)     # DT_NEEDED
    soname: str | None = None
    runpath: list[str] = field(default_factory=list)    # DT_RUNPATH / DT_RPATH entries


def read_dynamic(path: str | Path) -> DynInfo:
    info = DynInfo()
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            sec = elf.get_section_by_name(".dynsym")
            for sym in (sec.iter_symbols() if sec is not None else []):
                if not sym.name:
                    continue
                bind, typ = sym["st_info"]["bind"], sym["st_info"]["type"]
                if sym["st_shndx"] == "SHN_UNDEF":
                    info.undefined.add(sym.name)
                elif bind in ("STB_GLOBAL", "STB_WEAK") and typ in ("STT_FUNC", "STT_OBJECT", "STT_GNU_IFUNC"):
                    info.defined.add(sym.name)
            for seg in elf.iter_sections():
                if isinstance(seg, DynamicSection):
                    for tag in seg.iter_tags():
                        if tag.entry.d_tag == "DT_NEEDED":
                            info.needed.append(tag.needed)
                        elif tag.entry.d_tag == "DT_SONAME":
                            info.soname = tag.soname
                        elif tag.entry.d_tag in ("DT_RUNPATH", "DT_RPATH"):
                            info.runpath += (tag.runpath if tag.entry.d_tag == "DT_RUNPATH" else tag.rpath).split(":")
    except (OSError, ELFError) as e:
        raise SymbolOriginError(f"{path}: not a readable ELF shared object ({e})") from e
    return info


def aclnn_symbols(op_type: str) -> tuple[str, str]:
    return f"aclnn{op_type}GetWorkspaceSize", f"aclnn{op_type}"


def verify_symbol_origin(op_type: str, opapi_lib: str | Path, extension: str | Path | None = None) -> dict:
    """Raise SymbolOriginError unless `opapi_lib` defines both aclnn entry points of `op_type` and the extension
    neither defines them nor links another library that could (it must reach them through the helper's dlopen)."""
    opapi_lib = Path(opapi_lib)
    if not opapi_lib.is_file():
        raise SymbolOriginError(f"{opapi_lib}: the candidate's op-API library was not built")
    lib = read_dynamic(opapi_lib)
    want = aclnn_symbols(op_type)
    missing = [s for s in want if s not in lib.defined]
    if missing:
        raise SymbolOriginError(f"{opapi_lib.name} does not define {', '.join(missing)} (it defines "
                                f"{sorted(s for s in lib.defined if s.startswith('aclnn'))[:8]})")
    report = {"op_api": str(opapi_lib.resolve()), "symbols": list(want)}
    if extension is not None:
        ext = read_dynamic(extension)
        smuggled = [s for s in want if s in ext.defined]
        if smuggled:
            raise SymbolOriginError(f"{Path(extension).name} defines {', '.join(smuggled)} itself; the op must come "
                                    f"from {opapi_lib.name}")
        linked = [n for n in ext.needed if "cust_opapi" in n]
        if linked:
            raise SymbolOriginError(f"{Path(extension).name} links {linked} directly; it must reach the op only "
                                    "through the harness-resolved library")
        report["extension"] = str(Path(extension).resolve())
    return report


def realpath(p: str | Path) -> str:
    return os.path.realpath(p)
