"""Kernel-API semantics of ascsim, on one simulated core. tests/sim/cpp/api_test.cpp: rounding, cast modes, the
repeat engine, reductions, data movement units and strict checks. tests/sim/cpp/cube_api_test.cpp: the cube data
path against a naive GEMM, Fixpipe quantisation/relu, raw intrinsics, high-level math and their strict checks.
tests/sim/cpp/hl_shape_api_test.cpp: the pattern reductions, CumSum and Broadcast against the docs' worked examples,
with the host functions that size their temporary buffers."""
from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "api_test.cpp"
CUBE_SRC = REPO / "tests" / "sim" / "cpp" / "cube_api_test.cpp"
HL_SHAPE_SRC = REPO / "tests" / "sim" / "cpp" / "hl_shape_api_test.cpp"


def test_kernel_api_semantics():
    r = run_cpp_driver(SRC)
    # the DataCopy truncation is reported as a warning, not silently swallowed
    assert "not a multiple of 32 B" in r.stderr


def test_cube_and_high_level_api_semantics():
    run_cpp_driver(CUBE_SRC)


def test_shape_driven_high_level_apis():
    run_cpp_driver(HL_SHAPE_SRC)
