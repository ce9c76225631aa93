"""The kernel symbol allow-list: C++ runtime support the simulator's headers need passes with every GCC, an escape
hatch does not."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from kernelgen.bench.backends import symbols

pytestmark = pytest.mark.skipif(shutil.which("g++") is None or symbols.nm() is None, reason="needs g++ and nm")


def _obj(tmp_path, name: str, code: str):
    src = tmp_path / f"{name}.cpp"
    src.write_text(code)
    obj = tmp_path / f"{name}.o"
    subprocess.run(["g++", "-std=c++17", "-O2", "-c", str(src), "-o", str(obj)], check=True)
    return obj


def test_iostream_init_is_runtime_support_under_this_compiler(tmp_path):
    runtime = _obj(tmp_path, "runtime", "int ascsim_runtime_marker() { return 0; }\n")
    kernel = _obj(tmp_path, "kernel", "#include <iostream>\nint kernel_body(int x) { return x + 1; }\n")
    assert symbols.kernel_violations([kernel], runtime) == []


@pytest.mark.parametrize("symbol", ["_ZNSt8ios_base4InitC1Ev", "_ZNSt8ios_base4InitD1Ev",
                                    "_ZSt21ios_base_library_initv"])   # GCC <= 12, and GCC >= 13 (Ubuntu 24.04)
def test_iostream_init_of_every_gcc_is_allowed(symbol):
    assert symbols.CXX_ALLOWED.match(symbol)


def test_escape_hatches_are_violations(tmp_path):
    runtime = _obj(tmp_path, "runtime", "int ascsim_runtime_marker() { return 0; }\n")
    kernel = _obj(tmp_path, "kernel", "#include <dlfcn.h>\n#include <cstdio>\n"
                                      "void* k(const char* s) { std::fopen(s, \"r\"); return dlsym(nullptr, s); }\n")
    assert set(symbols.kernel_violations([kernel], runtime)) == {"dlsym", "fopen"}
    assert not symbols.CXX_ALLOWED.match("_ZSt21ios_base_library_initvX")
