"""Kernel-API semantics of ascsim (tests/sim/cpp/api_test.cpp): rounding, cast modes, the repeat engine,
reductions, data movement units and strict checks, on one simulated core."""
import subprocess

import pytest

from .conftest import REPO, cpp_test_binary

SRC = REPO / "tests" / "sim" / "cpp" / "api_test.cpp"


@pytest.fixture(scope="module")
def api_test_binary():
    return cpp_test_binary(SRC)


def test_kernel_api_semantics(api_test_binary):
    r = subprocess.run([str(api_test_binary)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "FAIL 0" in r.stdout
    # the DataCopy truncation is reported as a warning, not silently swallowed
    assert "not a multiple of 32 B" in r.stderr
