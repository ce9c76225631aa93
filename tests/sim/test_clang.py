"""The simulator under clang++ as well as g++ (bisheng, the device compiler, is clang-based, so clang-only
diagnostics matter): the C++ API drivers and every reference answer (built-in suite, and the NPUKernelBench
sample when ../shared is present) build with clang++ and pass all their cases (the sample's: the first case of each
dtype; all of them run under g++). Skipped when clang++ is absent;
`make test` installs Debian's clang."""
import shutil

import pytest

from .conftest import BUILTIN_TASKS, FIXTURE_TASKS, REPO, Runner, level_tasks, run_cpp_driver
from .test_reference_answers import _check_all_cases

CLANG = "clang++"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which(CLANG) is None, reason=f"{CLANG} not installed")]


@pytest.fixture(scope="module")
def clang_runner(tmp_path_factory):
    from kernelgen.bench.backends.sim import SimBackend
    be = SimBackend(cxx=CLANG)
    ok, why = be.available()
    if not ok:
        pytest.skip(f"sim backend unavailable under clang: {why}")
    assert be.is_clang and "clang" in be.versions()["compiler"]
    return Runner(be, tmp_path_factory.mktemp("clang"), timeout_s=300, memory_mib=8192)


@pytest.mark.parametrize("src", ["tests/sim/cpp/api_test.cpp", "tests/sim/cpp/cube_api_test.cpp"])
def test_api_drivers_pass_under_clang(src):
    run_cpp_driver(REPO / src, cxx=CLANG)


@pytest.mark.parametrize("path", level_tasks(BUILTIN_TASKS, 1, 2, 3), ids=lambda p: p.name)
def test_builtin_reference_passes_under_clang(clang_runner, path):
    _check_all_cases(clang_runner, path)


@pytest.mark.parametrize("path", level_tasks(FIXTURE_TASKS, 1, 2, 3), ids=lambda p: p.name)
def test_fixture_reference_passes_under_clang(clang_runner, fixture_root, path):
    # every dtype's instantiation, built by clang and run; all cases run under g++ (test_reference_answers)
    _check_all_cases(clang_runner, path, first_per_dtype=True)


def test_compiler_is_part_of_the_cache_key(tmp_path):
    from kernelgen.bench.backends.sim import SimBackend
    from kernelgen.bench.model import Candidate
    from kernelgen.bench.tasks import load_task
    task = load_task(level_tasks(BUILTIN_TASKS, 1)[0])
    cand = Candidate(task.task_id, 0, {}, "x")
    a = SimBackend(cxx="g++").prepare(task, cand, tmp_path / "a")
    b = SimBackend(cxx=CLANG).prepare(task, cand, tmp_path / "b")
    assert a.content_sha256 != b.content_sha256
