"""Level-2/3 kernel-API semantics (tests/sim_l23/cpp/l23_test.cpp): the cube data path against a naive GEMM,
Fixpipe quantisation/relu, raw intrinsics, high-level math and the strict checks, on one simulated core."""
import subprocess

import pytest

from .conftest import REPO, cpp_test_binary

SRC = REPO / "tests" / "sim_l23" / "cpp" / "l23_test.cpp"


@pytest.fixture(scope="module")
def l23_test_binary():
    return cpp_test_binary(SRC)


def test_level23_api_semantics(l23_test_binary):
    r = subprocess.run([str(l23_test_binary)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "FAIL 0" in r.stdout
