"""Missing-synchronisation detector (ASCSIM_SYNC_CHECK) and the TPipe limit of 8 queue buffers per TPosition
(tests/sim/cpp/sync_check_test.cpp): races between the MTE2/V/MTE3/S pipes are reported with both APIs, the pipes,
the UB offset and the missing HardEvent; queues, SetFlag/WaitFlag, PipeBarrier<PIPE_ALL> and --cce-auto-sync order
them; with the detector off nothing is reported."""

import pytest

from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "sync_check_test.cpp"


def test_sync_check():
    r = run_cpp_driver(SRC)
    # warn mode prints each race once on stderr, in the documented shape
    assert "missing SetFlag<HardEvent::MTE2_V>/WaitFlag between DataCopy (MTE2) and Add (V) on UB 0x" in r.stderr
    assert r.stderr.count("missing SetFlag<HardEvent::MTE2_V>/WaitFlag between DataCopy (MTE2) and Add (V)") == 1
    # high-level APIs report their operands with precise roles (sources read, destinations written)
    assert "missing SetFlag<HardEvent::MTE2_V>/WaitFlag between DataCopy (MTE2) and Sigmoid (V)" in r.stderr
    assert "missing SetFlag<HardEvent::V_MTE2>/WaitFlag between Sum (V) and DataCopy (MTE2) on UB 0x" in r.stderr
    assert "(write after read;" in r.stderr


EMBEDDING = "level1/Index/Embedding"


@pytest.mark.parametrize("mode", ["off", "error"])
def test_sync_check_in_worker_process(runner, mode):
    """End to end through the sandboxed case worker: the built-in Embedding answer copies GM -> UB -> GM through a
    TQueBind<VECIN, VECOUT>; without its EnQue/DeQue the MTE2 -> MTE3 order is lost. The simulated result is still
    right (the simulator is synchronous): only ASCSIM_SYNC_CHECK=error turns the race into a failed case."""
    import dataclasses

    from kernelgen.bench.model import Verdict

    from .conftest import BUILTIN_TASKS, answer_files, load
    task = load(BUILTIN_TASKS / EMBEDDING)
    files = answer_files(task)
    kernel = next(k for k in files if k.startswith("op_kernel/"))
    src = files[kernel]
    race = "stage_.EnQue(buf);\n        buf = stage_.DeQue<T>();\n"
    assert race in src
    files[kernel] = src.replace(race, "")
    res, rt = runner.build(task, files, tag="nosync")
    assert res.ok, res.log[-2000:]
    if mode != "off":
        rt = dataclasses.replace(rt, env={**rt.env, "ASCSIM_SYNC_CHECK": mode})
    results = runner.run(task, rt, case_ids=[task.cases[0].case_id])
    r = next(iter(results.values()))
    if mode == "off":
        assert r.verdict == Verdict.OK, r.message
    else:
        assert r.verdict != Verdict.OK
        text = r.message + "\n".join(r.diagnostics)
        assert "missing SetFlag<HardEvent::MTE2_MTE3>/WaitFlag between DataCopyPad (MTE2) and DataCopyPad (MTE3)" in text, text
