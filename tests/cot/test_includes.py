import shutil
import subprocess
from pathlib import Path

import pytest
from .conftest import FIXTURES, REPO
from kernelgen.cot.cpp import defined_names, includes
from kernelgen.cot.includes import IncludeResolver, strip_guard

OPS = FIXTURES / "ops_repo"
try:        # the simulator backend's own include path and language standard (read from the installed torch)
    from kernelgen.bench.backends.sim import CXX, SIM_INCLUDE
    from kernelgen.bench.torch_cxx import binding_std_flag
    STD = binding_std_flag()
except ImportError:
    CXX, SIM_INCLUDE, STD = "g++", REPO / "sim" / "include", "-std=c++17"


def resolve(rel: str):
    return IncludeResolver(OPS, [OPS / "common/inc"]).resolve(OPS / rel)


def test_tree_sitter_sees_only_real_includes():
    src = '#include "a.h"\n// #include "commented.h"\n/* #include "b.h" */\n#include <cstdint>\n'
    assert [(p, angled) for p, angled, _, _ in includes(src)] == [("a.h", False), ("cstdint", True)]


def test_defined_names_through_ascendc_qualifiers():
    src = (OPS / "math/leaky_clip/op_kernel/leaky_clip.cpp").read_text()
    assert {"KernelLeakyClip", "leaky_clip", "Init", "Process"} <= defined_names(src)


def test_strip_guard_only_whole_file_guards():
    assert "#ifndef" not in strip_guard("#ifndef A_H\n#define A_H\nint x;\n#endif // A_H\n")
    partial = "#ifndef FEATURE\n#define FEATURE\n#endif\nint y;\n"
    assert strip_guard(partial) == partial
    assert "pragma" not in strip_guard("#pragma once\nint z;\n")


def test_resolves_repo_headers_once_and_keeps_sdk_external():
    s = resolve("math/scaled_add/op_kernel/scaled_add.cpp")
    assert s.self_contained
    # dependencies first; the tiling struct header is included twice in the tree but inlined once
    assert s.inlined == ["math/scaled_add/op_kernel/scaled_add_tiling_data.h", "common/inc/op_kernel/vec_common.h",
                         "math/scaled_add/op_kernel/scaled_add_impl.h"]
    assert s.text.count("struct ScaledAddTilingData {") == 1
    assert s.external == ['#include "kernel_operator.h"', "#include <cstdint>"]
    body = s.text.split("\n", 2)[2]
    assert "#include" not in body and "#pragma once" not in body and "OPS_FIXTURE_VEC_COMMON_H" not in body


def test_include_root_is_needed_for_shared_headers():
    s = IncludeResolver(OPS, []).resolve(OPS / "math/scaled_add/op_kernel/scaled_add.cpp")
    # without the common/inc root, the suffix fallback still finds op_kernel/vec_common.h uniquely
    assert "common/inc/op_kernel/vec_common.h" in s.inlined


def test_missing_header_is_reported():
    s = resolve("math/broken_gather/op_kernel/broken_gather.cpp")
    assert not s.self_contained and s.unresolved == ["gather_helpers.h"]


@pytest.mark.skipif(not (SIM_INCLUDE / "kernel_operator.h").exists(), reason="simulator headers (sim/include) absent")
@pytest.mark.skipif(shutil.which(CXX) is None, reason=f"{CXX} not installed")
def test_snippet_compiles_alone_against_simulator_headers(tmp_path: Path):
    """The snippet must build with nothing but the SDK (here: the simulator's) include path."""
    snippet = tmp_path / "snippet.cpp"
    snippet.write_text(resolve("math/scaled_add/op_kernel/scaled_add.cpp").text)
    r = subprocess.run([CXX, STD, "-fsyntax-only", f"-I{SIM_INCLUDE}", "-x", "c++", str(snippet)],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    # and the original file does not build that way: its repo headers are not on the path
    r = subprocess.run([CXX, STD, "-fsyntax-only", f"-I{SIM_INCLUDE}", "-x", "c++",
                        str(OPS / "math/scaled_add/op_kernel/scaled_add.cpp"), "-o", "/dev/null"],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    assert r.returncode != 0 and "vec_common.h" in r.stderr
