"""Symbol-origin check on REAL shared objects built here with gcc (pyelftools reads their .dynsym/.dynamic)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from kernelgen.bench.backends.ascend.elfcheck import (
    SymbolOriginError,
    read_dynamic,
    verify_symbol_origin,
)

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is needed to build test shared objects")


def _so(tmp: Path, name: str, source: str, *link: str) -> Path:
    c = tmp / f"{name}.c"
    c.write_text(source)
    out = tmp / f"{name}.so"
    subprocess.check_call(["gcc", "-shared", "-fPIC", "-o", str(out), str(c), *link])
    return out


OPAPI = "int aclnnFooKg1GetWorkspaceSize(void) { return 0; }\nint aclnnFooKg1(void) { return 0; }\n" \
        "static int helper(void) { return 1; }\nint other(void) { return helper(); }\n"


def test_candidate_library_defining_both_entry_points_passes(tmp_path):
    lib = _so(tmp_path, "libcust_opapi", OPAPI)
    ext = _so(tmp_path, "ext", "extern int dlopen_like(void);\nint PyInit_x(void) { return 0; }\n")
    rep = verify_symbol_origin("FooKg1", lib, ext)
    assert rep["symbols"] == ["aclnnFooKg1GetWorkspaceSize", "aclnnFooKg1"]
    info = read_dynamic(lib)
    assert {"aclnnFooKg1", "aclnnFooKg1GetWorkspaceSize", "other"} <= info.defined
    assert "helper" not in info.defined     # static: not exported


def test_missing_entry_point_fails(tmp_path):
    lib = _so(tmp_path, "libcust_opapi", "int aclnnFooKg1GetWorkspaceSize(void) { return 0; }\n")
    with pytest.raises(SymbolOriginError, match="does not define aclnnFooKg1"):
        verify_symbol_origin("FooKg1", lib)


def test_a_different_op_in_the_library_does_not_count(tmp_path):
    lib = _so(tmp_path, "libcust_opapi", OPAPI)
    with pytest.raises(SymbolOriginError, match="does not define"):
        verify_symbol_origin("Foo", lib)          # the built-in name, not the candidate's unique one


def test_undefined_reference_is_not_a_definition(tmp_path):
    lib = _so(tmp_path, "libcust_opapi", "extern int aclnnFooKg1(void);\nextern int aclnnFooKg1GetWorkspaceSize(void);\n"
              "int f(void) { return aclnnFooKg1() + aclnnFooKg1GetWorkspaceSize(); }\n")
    assert "aclnnFooKg1" in read_dynamic(lib).undefined
    with pytest.raises(SymbolOriginError):
        verify_symbol_origin("FooKg1", lib)


def test_extension_defining_the_entry_point_fails(tmp_path):
    lib = _so(tmp_path, "libcust_opapi", OPAPI)
    ext = _so(tmp_path, "ext", "int aclnnFooKg1(void) { return 42; }\n")
    with pytest.raises(SymbolOriginError, match="itself"):
        verify_symbol_origin("FooKg1", lib, ext)


def test_extension_linking_cust_opapi_directly_fails(tmp_path):
    lib = _so(tmp_path, "libcust_opapi", OPAPI)
    ext = _so(tmp_path, "ext", "int aclnnFooKg1(void);\nint g(void) { return aclnnFooKg1(); }\n",
              f"-L{tmp_path}", "-lcust_opapi", f"-Wl,-rpath,{tmp_path}")
    info = read_dynamic(ext)
    assert "libcust_opapi.so" in info.needed and str(tmp_path) in info.runpath
    with pytest.raises(SymbolOriginError, match="links"):
        verify_symbol_origin("FooKg1", lib, ext)


def test_not_an_elf_file(tmp_path):
    bad = tmp_path / "libcust_opapi.so"
    bad.write_text("not an ELF")
    with pytest.raises(SymbolOriginError, match="not a readable ELF"):
        verify_symbol_origin("FooKg1", bad)
    with pytest.raises(SymbolOriginError, match="was not built"):
        verify_symbol_origin("FooKg1", tmp_path / "absent.so")
