"""Comparison rules (harness code; runs in-process on tensors the test makes)."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from kernelgen.bench.compare import compare, nkb_check_precision, tolerance_for  # noqa: E402
from kernelgen.bench.model import Verdict  # noqa: E402


def test_nkb_rule_fails_only_when_abs_and_rel_both_exceed():
    ref = torch.tensor([1000.0, 0.0001, 1.0], dtype=torch.float16)
    # 1000 -> 1000.5: abs 0.5 > 1e-3 but rel 5e-4 <= 1e-3 -> passes; 1e-4 -> 9e-4: abs 8e-4 <= 1e-3 -> passes
    out = torch.tensor([1000.5, 0.0009, 1.0], dtype=torch.float16)
    assert compare(ref, out).verdict == Verdict.OK
    bad = torch.tensor([1000.0, 0.0001, 1.01], dtype=torch.float16)
    c = compare(ref, bad)
    assert c.verdict == Verdict.VALUE_MISMATCH and c.mismatch_fraction == pytest.approx(1 / 3)


def test_fp32_tolerance_catches_a_silent_fp16_downgrade():
    ref = torch.randn(4096, dtype=torch.float32, generator=torch.Generator().manual_seed(0)) * 10
    assert compare(ref, ref.half().float()).verdict == Verdict.VALUE_MISMATCH
    assert compare(ref, ref.half().float(), tolerances={"float32": {"atol": 1e-2, "rtol": 1e-2}}).verdict == Verdict.OK


def test_non_finite_values_must_match_positionally():
    ref = torch.tensor([float("nan"), float("inf"), 1.0])
    assert compare(ref, ref.clone()).verdict == Verdict.OK
    assert compare(ref, torch.tensor([float("nan"), float("-inf"), 1.0])).verdict == Verdict.NAN_MISMATCH
    assert compare(torch.ones(3), torch.tensor([1.0, float("nan"), 1.0])).verdict == Verdict.NAN_MISMATCH


def test_integers_and_bools_are_exact():
    assert compare(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])).verdict == Verdict.VALUE_MISMATCH
    assert compare(torch.tensor([True, False]), torch.tensor([True, False])).verdict == Verdict.OK


def test_output_count_shape_dtype():
    a = torch.zeros(2, 3)
    assert compare((a, a), (a,)).verdict == Verdict.SHAPE_MISMATCH
    assert compare(a, torch.zeros(3, 2)).verdict == Verdict.SHAPE_MISMATCH
    assert compare(a, torch.zeros(2, 3, dtype=torch.int32)).verdict == Verdict.DTYPE_MISMATCH


def test_shapes_equal_but_for_unit_dims_are_compared_by_value():
    # NPUKernelBench's MseLoss binding returns [1] for a 0-d reference; NKB compares flattened outputs
    ref = torch.tensor(2.5)
    assert compare(ref, torch.tensor([2.5])).verdict == Verdict.OK
    assert compare(ref, torch.tensor([3.5])).verdict == Verdict.VALUE_MISMATCH
    assert compare(torch.zeros(2, 1, 3), torch.zeros(2, 3)).verdict == Verdict.OK
    assert compare(torch.zeros(6), torch.zeros(2, 3)).verdict == Verdict.SHAPE_MISMATCH   # same count, other layout


def test_custom_check_is_used_but_nan_still_fails():
    seen = {}

    def custom(row, ref, out):
        seen["row"] = row
        return 1, (ref - out).abs(), None
    ref = torch.ones(3)
    assert compare(ref, ref + 5, custom_check=custom, row={"dtype": "float32"}).verdict == Verdict.OK
    assert seen["row"] == {"dtype": "float32"}
    assert compare(ref, torch.tensor([1.0, float("nan"), 1.0]), custom_check=custom).verdict == Verdict.NAN_MISMATCH


def test_nkb_check_precision_compat():
    ok, abs_d, rel_d = nkb_check_precision(torch.ones(4), torch.ones(4) * 1.0005)
    assert ok == 1 and float(abs_d.max()) == pytest.approx(5e-4, rel=1e-3)
    assert nkb_check_precision(torch.ones(2), torch.tensor([1.0, float("nan")]))[0] == 0


def test_tolerance_overrides_by_alias():
    assert tolerance_for(torch.float16) == (1e-3, 1e-3)
    assert tolerance_for(torch.float16, {"fp16": {"atol": 0.5}}) == (0.5, 1e-3)


def test_declared_dtype_accepts_a_wider_reference_only_for_that_dtype():
    ref = torch.arange(10, dtype=torch.int64)
    assert compare(ref, ref.to(torch.int32), declared_dtype="int32").verdict == Verdict.OK
    assert compare(ref, ref.to(torch.int32)).verdict == Verdict.DTYPE_MISMATCH
    assert compare(ref, ref.to(torch.int16), declared_dtype="int32").verdict == Verdict.DTYPE_MISMATCH
    assert compare(ref, ref.float(), declared_dtype="float32").verdict == Verdict.DTYPE_MISMATCH   # int vs float
    wide = torch.linspace(-3, 3, 101, dtype=torch.float32)
    assert compare(wide, wide.half(), declared_dtype="float16").verdict == Verdict.OK   # fp16 tolerance applies



def test_a_floating_output_in_another_floating_dtype_is_compared_by_value_at_the_reference_tolerance():
    # the task's binding allocates the outputs (DeepNorm: float32 mean for a float16 reference); NPUKernelBench
    # compares them by value
    ref = torch.linspace(-3, 3, 101, dtype=torch.float16)
    exact = ref.float()
    assert compare(ref, exact).verdict == Verdict.OK
    assert compare(ref, exact + 2e-3).verdict == Verdict.VALUE_MISMATCH          # beyond fp16's 1e-3
    assert compare(ref, exact + 5e-4).verdict == Verdict.OK                      # within fp16's, not fp32's 1e-4
    # a narrower output gains no tolerance: a float32 reference keeps float32's
    wide = torch.linspace(-3, 3, 101, dtype=torch.float32) + 1e-4
    assert compare(wide, wide.half()).verdict == Verdict.VALUE_MISMATCH
    assert compare(ref, exact.to(torch.int16)).verdict == Verdict.DTYPE_MISMATCH    # another kind: still a mismatch


def _outputs_to_compare():
    g = torch.Generator().manual_seed(7)
    ref = torch.randn(40, 64, generator=g)
    scattered = ref.clone()
    scattered[3, 5] += 0.5
    scattered[39, 60] -= 2.0
    scattered[20, 0] += 1e-2
    small = torch.rand(2000, generator=g) * 1e-5                 # every element within atol, the whole 50 % off
    halves = torch.cat([torch.ones(1000), torch.full((1000,), 1e-6)])
    soft = torch.softmax(torch.randn(64, 64, generator=g) * 0.1, -1)   # every value near 1/64
    one_row_off = soft.clone()
    one_row_off[17] *= 1 + 2e-3                                  # elements and norms pass; one row sums to 1.002
    ints = torch.randint(-50, 50, (33, 10), generator=g)
    ints_bad = ints.clone()
    ints_bad[[0, 12, 32], [9, 3, 0]] += torch.tensor([5, -7, 11])
    cplx = torch.randn(100, dtype=torch.complex64, generator=g)
    nans = ref.clone()
    nans[[1, 2, 30], [7, 63, 0]] = float("nan")
    infs = ref.clone()
    infs[5, 5], infs[6, 6] = float("inf"), float("-inf")
    cplx_nan = cplx.clone()
    cplx_nan[40] = complex(float("nan"), 0)
    return [
        ("NaN pattern", nans, ref),
        ("-Inf where +Inf", infs, torch.where(infs == float("inf"), float("-inf"), infs)),
        ("complex NaN", cplx_nan, cplx),
        ("within tolerance", ref, ref + 1e-6),
        ("elements outside tolerance", ref, scattered),
        ("non-contiguous output", ref, scattered.t().contiguous().t()),
        ("relative L1", small, small * 1.5),
        ("gross fraction", halves, torch.cat([torch.ones(1000), torch.full((1000,), 3e-6)])),
        ("row sums", soft, one_row_off),
        ("integers", ints, ints_bad),
        ("bools", ints > 0, ints_bad > 0),
        ("complex", cplx, cplx + 1e-3),
        ("0-d", torch.tensor(2.0), torch.tensor(2.5)),
        ("empty", torch.zeros(0, 5), torch.zeros(0, 5)),
        ("float16 to float32", ref.half(), scattered.half().float()),
    ]


@pytest.mark.parametrize("chunk", [1, 7, 64, 1000])
def test_comparing_in_chunks_gives_what_one_piece_gives(monkeypatch, chunk):
    from kernelgen.bench import compare as cmp
    whole = {}
    for name, ref, out in _outputs_to_compare():
        whole[name] = compare(ref, out)
    monkeypatch.setattr(cmp, "CHUNK_ELEMENTS", chunk)
    for name, ref, out in _outputs_to_compare():
        got, want = compare(ref, out), whole[name]
        assert (got.verdict, got.message, got.max_abs_err, got.mismatch_fraction) == \
            (want.verdict, want.message, want.max_abs_err, want.mismatch_fraction), name
        assert got.max_rel_err == pytest.approx(want.max_rel_err), name
        assert repr(got.worst) == repr(want.worst), name   # repr: NaN != NaN
    # each whole-tensor rule fires here, with or without chunks
    assert "relative L1" in whole["relative L1"].message
    assert "off by more than 50%" in whole["gross fraction"].message
    assert "rows of a normalised output sum to 1.002" in whole["row sums"].message
    assert whole["within tolerance"].verdict == Verdict.OK and whole["empty"].verdict == Verdict.OK
    assert whole["elements outside tolerance"].mismatch_fraction == pytest.approx(3 / 2560)
    assert [w["index"] for w in whole["elements outside tolerance"].worst] == [[39, 60], [3, 5], [20, 0]]
    assert sorted(abs(w["expected"] - w["got"]) for w in whole["integers"].worst) == [5, 7, 11]
    assert whole["NaN pattern"].verdict == Verdict.NAN_MISMATCH and "at 3 element(s), first at index [1, 7]" in \
        whole["NaN pattern"].message
    assert [w["index"] for w in whole["NaN pattern"].worst] == [[1, 7], [2, 63], [30, 0]]
    assert "+Inf pattern differs from the reference at 1 element(s), first at index [5, 5]" in \
        whole["-Inf where +Inf"].message
    assert whole["complex NaN"].verdict == Verdict.NAN_MISMATCH
