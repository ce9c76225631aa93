"""Every reference answer (built-in suite, NPUKernelBench sample, the simulator's own mixed test tasks) is clean under
ascsim's missing-synchronisation detector in error mode: its first case passes with ASCSIM_SYNC_CHECK=error, and
answers whose CMakeLists.txt says --cce-auto-sync=off are checked without the compiler's automatic syncs."""
import pytest

from kernelgen.bench.model import Verdict

from .conftest import DATA_TASKS
from .conftest import BUILTIN_TASKS, FIXTURE_TASKS, Runner, answer_files, level_tasks, load


@pytest.fixture(scope="module")
def sync_runner(backend, tmp_path_factory):
    from kernelgen.bench.backends.sim import SimBackend
    return Runner(SimBackend(sync_check="error"), tmp_path_factory.mktemp("sync"), timeout_s=300, memory_mib=8192)


def _first_case_clean(runner, path):
    task = load(path)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-2000:]
    assert rt.env.get("ASCSIM_SYNC_CHECK") == "error"
    r = runner.run(task, rt, case_ids=[task.cases[0].case_id])[task.cases[0].case_id]
    assert r.verdict == Verdict.OK, f"{task.task_id}: {r.verdict.value}: {r.message[:500]}"


@pytest.mark.slow
@pytest.mark.parametrize("path", level_tasks(BUILTIN_TASKS, 1, 2, 3) + level_tasks(DATA_TASKS, 3), ids=lambda p: p.name)
def test_builtin_reference_is_sync_clean(sync_runner, path):
    _first_case_clean(sync_runner, path)


@pytest.mark.slow
@pytest.mark.parametrize("path", level_tasks(FIXTURE_TASKS, 1, 2, 3), ids=lambda p: p.name)
def test_fixture_reference_is_sync_clean(sync_runner, fixture_root, path):
    _first_case_clean(sync_runner, path)


def test_auto_sync_off_reaches_the_case_environment(sync_runner, fixture_root, tmp_path):
    from kernelgen.bench.model import Candidate
    task = load(FIXTURE_TASKS / "level2" / "Norm" / "RmsNorm")
    files = answer_files(task)
    assert "--cce-auto-sync=off" in files["CMakeLists.txt"]
    ws = sync_runner.backend.prepare(task, Candidate(task.task_id, 0, files, "ref"), tmp_path / "ws")
    assert sync_runner.backend.runtime_env(ws).env == {"ASCSIM_SYNC_CHECK": "error", "ASCSIM_CCE_AUTO_SYNC": "off"}
