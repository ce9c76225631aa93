"""Kernel-API semantics of ascsim (tests/sim/cpp/api_test.cpp): rounding, cast modes, the repeat engine,
reductions, data movement units and strict checks, on one simulated core."""
from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "api_test.cpp"


def test_kernel_api_semantics():
    r = run_cpp_driver(SRC)
    # the DataCopy truncation is reported as a warning, not silently swallowed
    assert "not a multiple of 32 B" in r.stderr
