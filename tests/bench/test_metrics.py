from __future__ import annotations

from math import comb

import pytest

from kernelgen.bench.metrics import MetricsConfig, compute, geomean, pass_at_k, status_results
from kernelgen.bench.model import EvalRecord


def closed_form(n, c, k):
    return 1 - comb(n - c, k) / comb(n, k)


@pytest.mark.parametrize("n,c,k,expected", [
    (5, 2, 1, 0.4), (5, 2, 2, 0.7), (10, 3, 5, 1 - 21 / 252), (4, 0, 2, 0.0), (4, 4, 1, 1.0), (3, 1, 3, 1.0),
])
def test_pass_at_k_hand_computed(n, c, k, expected):
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("n,c,k", [(200, 10, 100), (200, 1, 1), (100, 37, 10), (1000, 3, 100), (50, 49, 10)])
def test_pass_at_k_matches_closed_form_and_is_stable(n, c, k):
    assert pass_at_k(n, c, k) == pytest.approx(closed_form(n, c, k), rel=1e-9, abs=1e-12)


def test_pass_at_k_needs_n_at_least_k():
    with pytest.raises(ValueError):
        pass_at_k(5, 1, 10)


def rec(task, level, sample, case, verdict, *, compile_ok=True, error_class=None, speedup=None, dtype="float16"):
    return EvalRecord(dtype=dtype, run="r", task_id=task, level=level, category="C", op_name=task.split("/")[-1], case_id=case,
                      sample=sample, verdict=verdict, message="", candidate_sha256="x", compile_ok=compile_ok,
                      error_class=error_class, compile_log="", compile_seconds=0.0, compile_cached=False,
                      max_abs_err=None, max_rel_err=None, candidate_ms=[], baseline_ms=[], speedup=speedup, seed=0,
                      backend="b", versions={}, seconds=0.0, finished_at="")


def test_rates_pass_at_k_speedup_and_nkb_score():
    rs = []
    # task A (level 1): 2 samples x 2 cases; sample 0 fully ok (speedups 2 and 8 -> 4), sample 1 fails case 1
    rs += [rec("l1/A", 1, 0, 0, "ok", speedup=2.0), rec("l1/A", 1, 0, 1, "ok", speedup=8.0),
           rec("l1/A", 1, 1, 0, "ok"), rec("l1/A", 1, 1, 1, "value_mismatch")]
    # task B (level 2): sample 0 compile error, sample 1 ok (untimed)
    rs += [rec("l2/B", 2, 0, 0, "compile_error", compile_ok=False, error_class="scope"),
           rec("l2/B", 2, 1, 0, "ok")]
    # an infrastructure failure is not scored
    rs += [rec("l2/C", 2, 0, 0, "infra_error")]
    m = compute(rs, MetricsConfig(ks=[1, 2, 10], bootstrap_samples=200))
    o = m["overall"]
    assert o["candidates"] == 4 and o["tasks"] == 2
    assert o["compile_rate"] == pytest.approx(3 / 4) and o["exec_rate"] == pytest.approx(2 / 4)
    assert o["pass_at_k"] == {"1": pytest.approx(0.5), "2": pytest.approx(1.0)}   # k=10 > n: not reported
    assert o["speedup_geomean"] == pytest.approx(4.0)
    assert m["by_level"]["1"]["exec_rate"] == pytest.approx(0.5)
    assert m["verdicts"]["candidates"] == {"ok": 2, "value_mismatch": 1, "compile_error": 1, "infra_error": 1}
    assert m["compile_error_classes"] == {"scope": 1}
    assert m["infra_errors"] == 1
    assert m["by_dtype"] == {"float16": {"records": 6, "ok": 4, "pass_rate": pytest.approx(4 / 6)}}
    # NKB: micro-average of case units per level: L1 3/4, L2 1/2 -> 0.2*0.75 + 0.3*0.5
    assert m["nkb"]["score"] == pytest.approx(0.2 * 0.75 + 0.3 * 0.5)
    lo, hi = o["ci"]["pass@1"]
    assert 0 <= lo <= o["pass_at_k"]["1"] <= hi <= 1
    assert compute(list(reversed(rs)), MetricsConfig(ks=[1, 2, 10], bootstrap_samples=200)) == m   # deterministic
    # the operator's status block: headline figures, per level, error classes and verdicts (validated by the spec)
    st = status_results(m)
    assert st["compileRate"] == pytest.approx(3 / 4) and st["passAt1"] == pytest.approx(0.5)
    assert st["compileErrorClasses"] == {"scope": 1} and st["verdicts"]["compile_error"] == 1
    from kernelgen.specs.benchrun import BenchResults
    assert BenchResults.model_validate(st).compile_error_classes == {"scope": 1}


def test_geomean_ignores_missing():
    assert geomean([1.0, 4.0, None]) == pytest.approx(2.0)
    assert geomean([]) is None


def test_fast_p_and_compile_pass_at_k():
    # task A: 3 timed candidates (speedups 0.5, 1.2, 2.5), one wrong; task B: a compile error, a correct 1.0x
    rs = [rec("l1/A", 1, 0, 0, "ok", speedup=0.5), rec("l1/A", 1, 1, 0, "ok", speedup=1.2),
          rec("l1/A", 1, 2, 0, "ok", speedup=2.5), rec("l1/A", 1, 3, 0, "value_mismatch"),
          rec("l2/B", 2, 0, 0, "compile_error", compile_ok=False), rec("l2/B", 2, 1, 0, "ok", speedup=1.0)]
    m = compute(rs, MetricsConfig(ks=[1, 2], fast_ps=[0.0, 1.0, 1.5, 2.0], bootstrap_samples=0))
    # fast_p over the 6 candidates: correct and speedup >= p
    assert m["overall"]["fast_p"] == {"0": pytest.approx(4 / 6), "1": pytest.approx(3 / 6),
                                      "1.5": pytest.approx(1 / 6), "2": pytest.approx(1 / 6)}
    assert m["by_level"]["2"]["fast_p"]["1"] == pytest.approx(1 / 2)
    # compile pass@k: A compiled 4/4, B 1/2 -> pass@1 = (1 + 0.5) / 2; pass@2 = (1 + 1) / 2
    assert m["overall"]["compile_pass_at_k"] == {"1": pytest.approx(0.75), "2": pytest.approx(1.0)}
    assert status_results(m)["fastP"]["1.5"] == pytest.approx(1 / 6)
    # an untimed correct candidate makes fast_p unknown, not zero
    untimed = compute(rs + [rec("l2/B", 2, 2, 0, "ok")], MetricsConfig(ks=[1], fast_ps=[1.0], bootstrap_samples=0))
    assert untimed["overall"]["fast_p"] == {}
    nothing_right = compute([rs[3], rs[4]], MetricsConfig(ks=[1], fast_ps=[1.0], bootstrap_samples=0))
    assert nothing_right["overall"]["fast_p"] == {"1": 0.0}
