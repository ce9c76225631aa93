"""int4b_t in a whole kernel (tests/sim/data's Int4Quant, our own task): half rows rounded to int4b_t with the
level-2 Cast, packed two per byte into the op's int8 output through a GlobalTensor<int4b_t> offset in elements, and
cast back to half; queue buffers sized in bytes hand out int4b_t tensors of twice that many elements. The type's
semantics against the docs are checked in tests/sim/cpp/int4_test.cpp; here it has to build and run as a kernel uses it."""
from kernelgen.bench.model import Verdict

from .conftest import DATA_TASKS, answer_files, load

TASK = DATA_TASKS / "level1" / "Quant" / "Int4Quant"
KERNEL = "op_kernel/int4_quant.cpp"


def test_a_kernel_that_packs_int4_passes(runner):
    task = load(TASK)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1, 2])
    assert all(r.verdict == Verdict.OK for r in results.values()), {k: r.message[-400:] for k, r in results.items()}


def test_the_wrong_round_mode_is_caught(runner):
    task = load(TASK)
    files = answer_files(task)
    files[KERNEL] = files[KERNEL].replace("Cast(qL, xL, RoundMode::CAST_RINT, n)", "Cast(qL, xL, RoundMode::CAST_ROUND, n)")
    res, rt = runner.build(task, files, tag="round-not-rint")
    assert res.ok, res.log[-3000:]
    r = runner.run(task, rt, [0])[0]
    assert r.verdict == Verdict.VALUE_MISMATCH, r.message[-600:]
