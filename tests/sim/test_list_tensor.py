"""A tensor-list (DYNAMIC) input read with ListTensorDesc / TensorDesc (tests/sim/data's ListSum, our own task): the
kernel takes each tensor's address and shape from the list descriptor the runtime lays out, zeroes its output slice
with InitGlobalMemory and splits the elements with AscendC::Std::min. The classes' semantics against the documented
layout are checked in tests/sim/cpp/api_test.cpp."""
from kernelgen.bench.model import Verdict

from .conftest import DATA_TASKS, answer_files, load

TASK = DATA_TASKS / "level1" / "List" / "ListSum"
KERNEL = "op_kernel/list_sum.cpp"


def test_a_kernel_reads_a_tensor_list_through_list_tensor_desc(runner):
    task = load(TASK)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1, 2])
    assert all(r.verdict == Verdict.OK for r in results.values()), {k: r.message[-400:] for k, r in results.items()}


def test_an_index_past_the_list_is_an_error_not_a_read_of_arbitrary_memory(runner):
    task = load(TASK)
    files = answer_files(task)
    files[KERNEL] = files[KERNEL].replace("k < list.GetSize()", "k <= list.GetSize()")
    res, rt = runner.build(task, files, tag="past-the-list")
    assert res.ok, res.log[-3000:]
    r = runner.run(task, rt, [0])[0]
    assert r.verdict == Verdict.RUNTIME_ERROR and "tensor index out of range" in r.message, r.message[-600:]
