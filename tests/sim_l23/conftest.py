"""Fixtures for the level-2/3 simulator tests: one SimBackend (builds cached on disk) and a runner that builds a
task's reference answer (optionally patched) and runs its cases in the sandboxed worker."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# One backend fixture, runner and task helpers for both simulator test areas (tests/sim holds them).
from ..sim.conftest import (BUILTIN_TASKS, FIXTURE_TASKS, REPO, SHARED, Runner, answer_files, backend,  # noqa: F401
                            cpp_test_binary, load, run_cpp_driver,
                            level_tasks as _level_tasks)

DATA_TASKS = Path(__file__).resolve().parent / "data"   # simulator test tasks (mixed kernels), not a suite


def level_tasks(root: Path, levels: tuple[int, ...] = (2, 3)) -> list[Path]:
    return _level_tasks(root, *levels)


@pytest.fixture(scope="session")
def runner(backend, tmp_path_factory) -> Runner:  # noqa: F811
    return Runner(backend, tmp_path_factory.mktemp("sim_l23"), timeout_s=300,
                  memory_mib=int(os.environ.get("ASCSIM_TEST_MEMORY_MIB", "12288")))
