"""Level-2/3 kernel-API semantics (tests/sim_l23/cpp/l23_test.cpp): the cube data path against a naive GEMM,
Fixpipe quantisation/relu, raw intrinsics, high-level math and the strict checks, on one simulated core."""
import hashlib
import shutil
import subprocess

import pytest

from kernelgen.bench.backends.sim import CXX, SIM_INCLUDE, SIM_ROOT, cache_root, cpu_flags, sim_sources_hash

from .conftest import REPO

SRC = REPO / "tests" / "sim_l23" / "cpp" / "l23_test.cpp"


@pytest.fixture(scope="module")
def l23_test_binary():
    if shutil.which(CXX) is None:
        pytest.skip(f"{CXX} not installed")
    key = hashlib.sha256((sim_sources_hash() + SRC.read_text() + " ".join(cpu_flags())).encode()).hexdigest()[:16]
    exe = cache_root() / "tests" / f"l23_test-{key}"
    if not exe.exists():
        exe.parent.mkdir(parents=True, exist_ok=True)
        tmp = exe.with_suffix(".tmp")
        subprocess.run([CXX, "-std=c++17", "-O1", *cpu_flags(), f"-I{SIM_INCLUDE}", str(SRC), str(SIM_ROOT / "src" / "runtime.cpp"),
                        "-o", str(tmp), "-lpthread"], check=True, timeout=600)
        tmp.rename(exe)
    return exe


def test_level23_api_semantics(l23_test_binary):
    r = subprocess.run([str(l23_test_binary)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "FAIL 0" in r.stdout
