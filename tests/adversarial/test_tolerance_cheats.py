"""Outputs shaped to slip through the per-element rule (issue 15, class 14) meet the whole-tensor checks."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from kernelgen.bench.compare import compare, tolerance_for  # noqa: E402
from kernelgen.bench.model import Verdict  # noqa: E402


def _softmax(dtype, rows=8, n=4096):
    x = torch.randn(rows, n, generator=torch.Generator().manual_seed(3)) * 3
    return torch.softmax(x.double(), -1).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_softmax_exact_only_where_large_is_caught(dtype):
    ref = _softmax(dtype)
    atol, _ = tolerance_for(dtype)
    cheat = torch.where(ref.double() >= atol, ref.double(), torch.zeros((), dtype=torch.float64)).to(dtype)
    assert (cheat == 0).float().mean() > 0.5           # most elements are zero ...
    assert ((cheat.double() - ref.double()).abs() <= atol).all()   # ... yet each one is within atol
    c = compare(ref, cheat)
    assert c.verdict == Verdict.VALUE_MISMATCH, c.message


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_honest_rounding_still_passes(dtype):
    ref = _softmax(dtype)
    honest = torch.softmax(torch.log(ref.double().clamp_min(1e-30)).float(), -1).to(dtype)   # recomputed, re-rounded
    assert compare(ref, honest).verdict == Verdict.OK
    x = torch.randn(64, 512, generator=torch.Generator().manual_seed(4))
    r = torch.nn.functional.layer_norm(x.double(), (512,)).to(dtype)
    o = torch.nn.functional.layer_norm(x.to(dtype).float(), (512,)).to(dtype)   # computed from rounded inputs
    assert compare(r, o, tolerances={dtype_name(dtype): {"atol": 1e-2, "rtol": 1e-2}}).verdict == Verdict.OK


def dtype_name(d) -> str:
    return str(d).replace("torch.", "")


def test_small_values_dropped_without_distribution_rows_are_caught_by_the_norm():
    ref = torch.linspace(-1e-3, 1e-3, 10000, dtype=torch.float32) + torch.randn(10000) * 1e-5
    cheat = torch.zeros_like(ref)       # every element within the (loosened) atol
    c = compare(ref, cheat, tolerances={"float32": {"atol": 2e-3, "rtol": 1e-4}})
    assert c.verdict == Verdict.VALUE_MISMATCH and "relative" in c.message
