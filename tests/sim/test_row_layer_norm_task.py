"""A high-level API whose tiling struct travels nested in the op's own tiling, through the real build (tests/sim/data's
RowLayerNorm, our own task): the host fills optiling::LayerNormTiling with GetLayerNormNDTilingInfo inside its
TilingData (TILING_DATA_FIELD_DEF_STRUCT), the build turns the host dump into the kernel's struct, and the kernel hands
it to AscendC::LayerNorm. The API's math against its docs is checked in tests/sim/cpp/hl_norm_test.cpp."""
from kernelgen.bench.model import Verdict

from .conftest import DATA_TASKS, answer_files, load

TASK = DATA_TASKS / "level2" / "Norm" / "RowLayerNorm"
KERNEL = "op_kernel/row_layer_norm.cpp"


def test_layer_norm_with_a_nested_tiling_struct_passes(runner):
    task = load(TASK)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1, 2])
    assert all(r.verdict == Verdict.OK for r in results.values()), {k: r.message[-400:] for k, r in results.items()}


def test_gamma_and_beta_swapped_is_caught(runner):
    task = load(TASK)
    files = answer_files(task)
    files[KERNEL] = files[KERNEL].replace("xL, gL, bL, tmpL", "xL, bL, gL, tmpL")
    res, rt = runner.build(task, files, tag="swapped")
    assert res.ok, res.log[-3000:]
    r = runner.run(task, rt, [0])[0]
    assert r.verdict == Verdict.VALUE_MISMATCH, r.message[-600:]
