"""The C++ standard of task bindings follows torch's headers; compile logs keep their first error."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kernelgen.bench import torch_cxx
from kernelgen.bench.errors import classify_compile_error, clip_log, first_errors
from kernelgen.bench.model import CompileErrorClass


def _fake_torch(tmp_path: Path, guard: str | None) -> Path:
    inc = tmp_path / "include"
    h = inc / "torch/csrc/api/include/torch/all.h"
    h.parent.mkdir(parents=True)
    h.write_text(f"#pragma once\n#if !defined(_MSC_VER) && __cplusplus < {guard}L\n#error C++ too old\n#endif\n"
                 if guard else "#pragma once\n")
    return inc


@pytest.mark.parametrize("guard,std", [("201703", "c++17"), ("202002", "c++20"), ("202302", "c++23"), (None, "c++17")])
def test_required_std_is_read_from_torch_headers(tmp_path, guard, std):
    assert torch_cxx.required_std(_fake_torch(tmp_path, guard)) == std


def test_unsupported_standard_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(torch_cxx, "torch_include_dir", lambda: _fake_torch(tmp_path, "202302"))
    torch_cxx.binding_std_flag.cache_clear()
    try:
        with pytest.raises(torch_cxx.ToolchainError, match=r"needs c\+\+23.*uv\.lock"):
            torch_cxx.binding_std_flag()
    finally:
        torch_cxx.binding_std_flag.cache_clear()


def test_installed_torch_passes_the_check():
    r = subprocess.run([sys.executable, "-m", "kernelgen.bench.torch_cxx", "--check"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "task bindings build with -std=c++" in r.stdout


def test_clip_log_keeps_head_and_tail():
    log = "a.cpp:1:1: error: #error needs C++20\n" + "note: in instantiation\n" * 5000 + "last step failed\n"
    clipped = clip_log(log, 4000)
    assert len(clipped) < 4100
    assert clipped.startswith("a.cpp:1:1: error: #error needs C++20")
    assert clipped.endswith("last step failed\n")
    assert "characters cut" in clipped
    assert clip_log("short", 4000) == "short"


def test_classifier_reads_the_first_error_of_a_long_log():
    log = ("In file included from torch/all.h:3:\ntorch/all.h:5:2: error: #error C++20 or later required\n"
           + "note: candidate template ignored\n" * 3000)
    assert classify_compile_error(log) == CompileErrorClass.MACRO
    assert first_errors(log) == "torch/all.h:5:2: error: #error C++20 or later required"


def _record(verdict: str, log: str = "", case: int = 0) -> dict:
    return {"run": "demo", "task_id": "L1_Add", "level": 1, "category": "x", "op_name": "Add", "case_id": case,
            "sample": 0, "verdict": verdict, "message": "", "candidate_sha256": "0", "compile_ok": verdict != "compile_error",
            "error_class": None, "compile_log": log, "compile_seconds": 0.0, "compile_cached": False, "max_abs_err": None,
            "max_rel_err": None, "candidate_ms": [], "baseline_ms": [], "speedup": None, "seed": 0, "backend": "sim",
            "versions": {}, "seconds": 0.0, "finished_at": "2026-01-01T00:00:00Z"}


def _selfcheck(run_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelgen.bench.selfcheck", str(run_dir)], capture_output=True,
                          text=True, timeout=120)


def test_selfcheck_fails_with_the_first_compiler_error(tmp_path):
    log = "pybind.cpp:1:10: error: #error C++20 or later required\n" + "note: blah\n" * 2000
    (tmp_path / "records.jsonl").write_text("\n".join(json.dumps(r) for r in
                                                      [_record("ok", case=1), _record("compile_error", clip_log(log, 4000))]) + "\n")
    r = _selfcheck(tmp_path)
    assert r.returncode == 1
    assert "1 of 2 reference cases are not ok" in r.stderr
    assert "error: #error C++20 or later required" in r.stderr
    assert "torch_cxx --check" in r.stderr


def test_selfcheck_passes_and_refuses_an_empty_run(tmp_path):
    assert _selfcheck(tmp_path).returncode == 1                       # nothing evaluated is not a pass
    (tmp_path / "records.jsonl").write_text(json.dumps(_record("ok")) + "\n")
    r = _selfcheck(tmp_path)
    assert r.returncode == 0 and "all 1 reference cases ok" in r.stdout


@pytest.mark.parametrize("torch_std,is_clang,expect", [
    ("c++17", False, "-std=c++20"), ("c++17", True, "-std=c++17"), ("c++20", False, "-std=c++20"), ("c++20", True, "-std=c++20")])
def test_kernel_standard_under_gxx_is_at_least_cxx20(monkeypatch, torch_std, is_clang, expect):
    monkeypatch.setenv("ASCSIM_BINDING_STD", torch_std)
    torch_cxx.binding_std_flag.cache_clear()
    try:
        assert torch_cxx.kernel_std_flag(is_clang) == expect
    finally:
        torch_cxx.binding_std_flag.cache_clear()


# A coordinate type as template libraries write it: a constexpr constructor that assigns its array in its body,
# used in a constant expression. The device compiler (clang-based, C++17 mode) accepts it; g++ only as C++20.
CONSTEXPR_BODY_INIT = """
template <int N> struct Coord {
    constexpr explicit Coord(const unsigned (&v)[N]) { for (int i = 0; i < N; ++i) idx[i] = v[i]; }
    unsigned idx[N];
};
constexpr unsigned kDims[2] = {128, 256};
static constexpr auto kShape = Coord<2>(kDims);
static_assert(kShape.idx[1] == 256, "evaluated at compile time");
"""


def test_kernels_under_gxx_accept_constexpr_constructors_that_assign_in_their_body(tmp_path):
    import shutil
    from kernelgen.bench.backends.sim import SimBackend
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    src = tmp_path / "k.cpp"
    src.write_text(CONSTEXPR_BODY_INIT)
    be = SimBackend(cxx="g++", cache_dir=tmp_path / "cache")
    std = [f for f in be._kernel_flags() if f.startswith("-std=")]
    ok = subprocess.run(["g++", *std, "-fsyntax-only", str(src)], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr[-2000:]
    old = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", str(src)], capture_output=True, text=True, timeout=120)
    assert old.returncode != 0 and "constant expression" in old.stderr   # why the kernel standard is raised
