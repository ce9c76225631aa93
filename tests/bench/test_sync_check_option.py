"""BenchRun `evaluation.syncCheck` reaches the sim backend's case processes as ASCSIM_SYNC_CHECK (the detector
itself is tested in tests/sim/test_sync_check.py)."""
import pytest
from pydantic import ValidationError

from kernelgen.bench.backends import get_backend
from kernelgen.bench.model import Candidate
from kernelgen.bench.tasks import load_task
from kernelgen.specs.benchrun import Evaluation

from ..sim.conftest import BUILTIN_TASKS, level_tasks


def test_spec_field_is_camel_case_and_closed():
    assert Evaluation.model_validate({"syncCheck": "error"}).sync_check == "error"
    assert Evaluation.model_validate({}).sync_check == "off"
    with pytest.raises(ValidationError):
        Evaluation.model_validate({"syncCheck": "loud"})


@pytest.mark.parametrize("mode,env", [("off", {}), ("warn", {"ASCSIM_SYNC_CHECK": "warn"}),
                                      ("error", {"ASCSIM_SYNC_CHECK": "error"})])
def test_backend_puts_the_mode_in_the_case_environment(tmp_path, mode, env):
    be = get_backend("sim", sync_check=mode)
    task = load_task(level_tasks(BUILTIN_TASKS, 1)[0])
    ws = be.prepare(task, Candidate(task.task_id, 0, {}, "x"), tmp_path / "ws")
    assert be.runtime_env(ws).env == env


def test_backend_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="sync_check"):
        get_backend("sim", sync_check="loud")
