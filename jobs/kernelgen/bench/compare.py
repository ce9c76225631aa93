"""Output comparison: counts, shapes, dtypes, non-finite pattern, values, input mutation.

Runs inside the sandboxed case worker (it imports torch); nothing here executes candidate code.

Tolerance rule (NPUKernelBench's default, evaluation-methodology §1.2): an element fails only when
``|ref - out| > atol`` *and* ``|ref - out| / (|ref| + 1e-7) > rtol``. The per-dtype defaults are about one
unit in the last place of the dtype (fp16 ~ 2^-10, bf16 2^-7); fp32 is 1e-4 rather than NKB's 1e-3 so that a
silent fp32 -> fp16 downgrade (relative error ~5e-4) is caught. Integer and bool outputs must match exactly.
Non-finite values must sit at the same positions as in the reference (positional NaN/+Inf/-Inf matching),
even where a task's own ``custom_check_precision`` would let NaN through.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .model import Verdict

#: dtype name -> (atol, rtol); overridable per run (spec evaluation.tolerances).
DEFAULT_TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (1e-3, 1e-3),
    "bfloat16": (2 ** -7, 2 ** -7),
    "float32": (1e-4, 1e-4),
    "float64": (1e-7, 1e-7),
    "complex64": (1e-4, 1e-4),
    "complex128": (1e-7, 1e-7),
}
REL_EPS = 1e-7

#: Whole-tensor checks, on top of the per-element rule (which a kernel can satisfy while being wrong on every
#: element below atol, e.g. a softmax that zeroes its small probabilities): dtype -> (relative L1 and L2 error
#: bound ||out-ref|| / ||ref||, fraction of elements allowed a gross (>50 %) relative error among those whose
#: reference is a normal number, row-sum bound for outputs whose reference rows are distributions).
WHOLE_TENSOR: dict[str, tuple[float, float, float]] = {
    "float16": (5e-3, 0.01, 1e-2),
    "bfloat16": (4e-2, 0.01, 8e-2),
    "float32": (5e-4, 0.01, 1e-3),
    "float64": (1e-6, 0.01, 1e-6),
}
GROSS_REL = 0.5
GROSS_MIN = 8     # a handful of near-cancellation elements is not a pattern


def dtype_name(dtype: Any) -> str:
    return str(dtype).replace("torch.", "")


def tolerance_for(dtype: Any, overrides: Mapping[str, Any] | None = None) -> tuple[float, float]:
    """(atol, rtol) for a dtype; overrides map dtype name -> {"atol", "rtol"} or (atol, rtol)."""
    name = dtype_name(dtype)
    aliases = {"half": "float16", "float": "float32", "double": "float64", "bf16": "bfloat16",
               "fp16": "float16", "fp32": "float32"}
    if overrides:
        for key, tol in overrides.items():
            if aliases.get(key, key) == name:
                if isinstance(tol, Mapping):
                    base = DEFAULT_TOLERANCES.get(name, (0.0, 0.0))
                    return float(tol.get("atol", base[0])), float(tol.get("rtol", base[1]))
                return float(tol[0]), float(tol[1])
    return DEFAULT_TOLERANCES.get(name, (0.0, 0.0))


@dataclass
class Check:
    verdict: Verdict
    message: str = ""
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    mismatch_fraction: float | None = None
    worst: list[dict] = field(default_factory=list)   # the largest differences: output, index, expected, got


WORST_SHOWN = 5

#: Outputs are compared in pieces of this many elements, so that the float64 temporaries stay in the cache: made for a
#: whole 67M-element output they were ten of 536 MB each, most of such a case's time (page faults) and of the judge's
#: memory (benchmarks/compare_speed.py).
CHUNK_ELEMENTS = 1 << 16


def _scalar(x: Any) -> Any:
    """A tensor element as JSON: a number, or its text (complex)."""
    v = x.item()
    return v if isinstance(v, (int, float, bool)) else str(v)


def _index(pos: int, shape) -> tuple[int, ...]:
    """A flat position as an index into `shape` (torch.unravel_index would import sympy: 1.7 s on first use)."""
    idx = []
    for size in reversed(tuple(shape)):
        pos, rest = divmod(pos, size)
        idx.append(rest)
    return tuple(reversed(idx))


class _Largest:
    """The WORST_SHOWN largest scores among marked elements, kept across chunks, with their flat positions."""

    def __init__(self) -> None:
        import torch
        self.score = torch.empty(0, dtype=torch.float64)
        self.pos = torch.empty(0, dtype=torch.int64)

    def add(self, score, marked, start: int, count: int | None = None) -> None:
        """`count`: how many are marked, when the caller has counted them already."""
        import torch
        k = min(WORST_SHOWN, int(marked.sum()) if count is None else count)
        if not k:
            return
        top = torch.topk(torch.where(marked, score, torch.full((), -1.0, dtype=score.dtype)), k)
        score = torch.cat([self.score, top.values.to(torch.float64)])
        pos = torch.cat([self.pos, top.indices + start])
        keep = torch.topk(score, min(WORST_SHOWN, score.numel())).indices
        self.score, self.pos = score[keep], pos[keep]

    def rows(self, i: int, ref, out) -> list[dict]:
        return _rows(i, ref, out, self.pos.tolist())


def _rows(i: int, ref, out, positions: list[int]) -> list[dict]:
    """Elements at flat positions as readable rows for reports: output, index, expected, got."""
    rows = []
    for pos in positions:
        idx = _index(pos, ref.shape)
        rows.append({"output": i, "index": list(idx), "expected": _scalar(ref[idx]), "got": _scalar(out[idx])})
    return rows


def _chunks(ref, out):
    """(flat start, ref piece, out piece): matching pieces of about CHUNK_ELEMENTS, whole rows of the last dimension
    each (the row-sum rule needs whole rows)."""
    row = ref.shape[-1] if ref.dim() and ref.shape[-1] else 1
    step = max(1, CHUNK_ELEMENTS // row) * row
    r, o = ref.reshape(-1), out.reshape(-1)
    for start in range(0, r.numel(), step):
        yield start, r[start:start + step], o[start:start + step]


def as_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _bits_equal(a, b) -> bool:
    import torch
    if a.shape != b.shape or a.dtype != b.dtype or a.layout != b.layout:
        return False
    if a.layout == torch.sparse_coo:
        return a.is_coalesced() == b.is_coalesced() and _bits_equal(a._indices(), b._indices()) and \
            _bits_equal(a._values(), b._values())
    a, b = a.detach().cpu().contiguous().reshape(-1), b.detach().cpu().contiguous().reshape(-1)  # 0-d tensors cannot be viewed as bytes
    if a.numel() == 0:
        return True
    return torch.equal(a.view(torch.uint8) if a.dtype != torch.bool else a,
                       b.view(torch.uint8) if b.dtype != torch.bool else b)


def _nonfinite_check(i: int, ref, out) -> Check | None:
    import torch
    if not (ref.is_floating_point() or ref.is_complex()):
        return None
    r, o = (torch.view_as_real(ref), torch.view_as_real(out)) if ref.is_complex() else (ref, out)
    patterns = (("NaN", torch.isnan), ("+Inf", torch.isposinf), ("-Inf", torch.isneginf))
    counts = [0] * len(patterns)
    firsts: list[list[int]] = [[] for _ in patterns]   # the earliest WORST_SHOWN positions where each differs
    for start, rc, oc in _chunks(r, o):
        if bool(torch.isfinite(rc).all()) and bool(torch.isfinite(oc).all()):
            continue
        for k, (_, fn) in enumerate(patterns):
            diff = fn(rc) ^ fn(oc)
            n = int(diff.sum())
            if n:
                counts[k] += n
                firsts[k] += (diff.nonzero().reshape(-1)[:WORST_SHOWN - len(firsts[k])] + start).tolist()
    for (name, _), n, first in zip(patterns, counts, firsts):
        if n:
            at = _index(first[0], r.shape)
            return Check(Verdict.NAN_MISMATCH,
                         f"output {i}: {name} pattern differs from the reference at {n} element(s), first at "
                         f"index {list(at)} (reference {r[at].item()!r}, candidate {o[at].item()!r})",
                         worst=[] if ref.is_complex() else _rows(i, ref, out, first))
    return None


def _value_check(i: int, ref, out, overrides, tol_dtype=None) -> Check:
    import torch
    if ref.dtype == torch.bool or not (ref.is_floating_point() or ref.is_complex()):
        return _exact_check(i, ref, out)
    atol, rtol = tolerance_for(tol_dtype or ref.dtype, overrides)
    sums, top = _Sums(), _Largest()
    wide = torch.complex128 if ref.is_complex() else torch.float64
    dtype = tol_dtype or ref.dtype
    whole = WHOLE_TENSOR.get(dtype_name(dtype)) is not None and not ref.is_complex() and ref.numel() >= 2
    tiny = torch.finfo(dtype).tiny if dtype.is_floating_point else 0.0
    for start, rc, oc in _chunks(ref, out):
        r, o = rc.to(wide), oc.to(wide)
        finite = torch.isfinite(r) & torch.isfinite(o)
        abs_d = torch.where(finite, (r - o).abs(), torch.zeros((), dtype=torch.float64))
        rel_d = abs_d / (r.abs() + REL_EPS)
        bad = (abs_d > atol) & (rel_d > rtol)
        n = sums.add_bad(bad, start)
        if n:
            top.add(abs_d, bad, start, n)
        sums.max_abs = max(sums.max_abs, float(abs_d.max()))
        sums.max_rel = max(sums.max_rel, float(rel_d.max()))
        if whole and not sums.bad:
            sums.add_whole(r, o, finite, abs_d, tiny, ref.shape[-1])
    frac = sums.bad / max(1, ref.numel())
    if sums.bad:
        first = _index(sums.first_bad, ref.shape)
        return Check(Verdict.VALUE_MISMATCH,
                     f"output {i}: {sums.bad}/{ref.numel()} elements outside tolerance (atol={atol:g}, rtol={rtol:g}, "
                     f"{dtype_name(ref.dtype)}); max abs err {sums.max_abs:.3g}, max rel err {sums.max_rel:.3g}; "
                     f"first at {list(first)}: reference {ref[first].item()!r}, candidate {out[first].item()!r}",
                     sums.max_abs, sums.max_rel, frac, top.rows(i, ref, out))
    why = _whole_tensor_verdict(i, sums, dtype) if whole else ""
    if why:
        return Check(Verdict.VALUE_MISMATCH, why, sums.max_abs, sums.max_rel, frac,
                     _largest_differences(i, ref, out))
    return Check(Verdict.OK, "", sums.max_abs, sums.max_rel, 0.0)


def _exact_check(i: int, ref, out) -> Check:
    """Integer and bool outputs: every element equal."""
    import torch
    sums, top = _Sums(), _Largest()
    for start, rc, oc in _chunks(ref, out):
        r, o = rc.to(torch.int64), oc.to(torch.int64)
        bad = r != o
        diff = (r - o).abs()
        n = sums.add_bad(bad, start)
        if n:
            top.add(diff.to(torch.float64), bad, start, n)
        sums.max_abs = max(sums.max_abs, float(diff.max()))
    if sums.bad:
        first = _index(sums.first_bad, ref.shape)
        return Check(Verdict.VALUE_MISMATCH,
                     f"output {i}: {sums.bad}/{ref.numel()} elements differ (exact match required for "
                     f"{dtype_name(ref.dtype)}), first at {list(first)}: reference {int(ref[first])}, "
                     f"candidate {int(out[first])}", sums.max_abs, None, sums.bad / max(1, ref.numel()),
                     top.rows(i, ref, out))
    return Check(Verdict.OK, "", sums.max_abs, 0.0, 0.0)


def _largest_differences(i: int, ref, out) -> list[dict]:
    """The largest nonzero differences (for an output the whole-tensor rules rejected)."""
    import torch
    top = _Largest()
    for start, rc, oc in _chunks(ref, out):
        r, o = rc.to(torch.float64), oc.to(torch.float64)
        abs_d = torch.where(torch.isfinite(r) & torch.isfinite(o), (r - o).abs(), torch.zeros((), dtype=torch.float64))
        top.add(abs_d, abs_d > 0, start)
    return top.rows(i, ref, out)


@dataclass
class _Sums:
    """What the element and whole-tensor rules need of an output, accumulated over its chunks."""
    bad: int = 0
    first_bad: int = -1
    max_abs: float = 0.0
    max_rel: float = 0.0
    ref_l1: float = 0.0        # of the reference's finite values
    ref_l2sq: float = 0.0
    err_l1: float = 0.0
    err_l2sq: float = 0.0
    normal: int = 0            # elements whose reference is a normal number
    gross: int = 0             # ... and whose error exceeds GROSS_REL of it
    distributions: bool = True  # every value finite, the reference's >= 0 and its rows sum to 1 (within 1e-3)
    row_dev: float = 0.0       # the largest |candidate row sum - reference row sum| ...
    row_got: float = 0.0       # ... and that candidate row sum

    def add_bad(self, bad, start: int) -> int:
        """Counts a piece's failing elements (returned) and keeps the first one's position."""
        n = int(bad.sum())
        if n and not self.bad:
            self.first_bad = start + int(bad.nonzero()[0])
        self.bad += n
        return n

    def add_whole(self, r, o, finite, abs_d, tiny: float, row: int) -> None:
        import torch
        rf = torch.where(finite, r, torch.zeros((), dtype=torch.float64))
        self.ref_l1 += float(rf.abs().sum())
        self.ref_l2sq += float(rf.square().sum())
        self.err_l1 += float(abs_d.sum())
        self.err_l2sq += float(abs_d.square().sum())
        r_abs = r.abs()
        normal = finite & (r_abs >= tiny)
        self.normal += int(normal.sum())
        self.gross += int(((abs_d > GROSS_REL * r_abs) & normal).sum())
        if not self.distributions or row < 2 or not bool(finite.all()) or not bool((r >= 0).all()):
            self.distributions = False
            return
        rows = r.reshape(-1, row).sum(-1)
        if not bool(((rows - 1).abs() <= 1e-3).all()):
            self.distributions = False
            return
        got = o.reshape(-1, row).sum(-1)
        dev = (got - rows).abs()
        j = int(dev.argmax())
        if float(dev[j]) > self.row_dev:
            self.row_dev, self.row_got = float(dev[j]), float(got[j])


def _whole_tensor_verdict(i: int, s: _Sums, dtype) -> str:
    """'' or why the output as a whole is wrong though every element passed (see WHOLE_TENSOR)."""
    norm_tol, gross_frac, rowsum_tol = WHOLE_TENSOR[dtype_name(dtype)]
    for name, ref_norm, err in (("L1", s.ref_l1, s.err_l1), ("L2", s.ref_l2sq ** 0.5, s.err_l2sq ** 0.5)):
        if ref_norm > 0 and err > norm_tol * ref_norm:
            return (f"output {i}: relative {name} error {err / ref_norm:.3g} exceeds {norm_tol:g} "
                    f"({dtype_name(dtype)}) although every element is within tolerance")
    if s.normal and s.gross > max(GROSS_MIN, gross_frac * s.normal):
        return (f"output {i}: {s.gross}/{s.normal} elements are off by more than "
                f"{GROSS_REL:.0%} of the reference (at most {gross_frac:.0%} allowed)")
    if s.distributions and s.row_dev > rowsum_tol:
        return (f"output {i}: rows of a normalised output sum to {s.row_got:.4g} "
                f"(reference 1, off by {s.row_dev:.3g} > {rowsum_tol:g})")
    return ""


def _max_of(x: Any) -> float | None:
    try:
        import torch
        if isinstance(x, torch.Tensor):
            return float(x.detach().to(torch.float64).abs().max()) if x.numel() else 0.0
        if isinstance(x, (list, tuple)):
            vals = [v for v in (_max_of(e) for e in x) if v is not None]
            return max(vals) if vals else None
        return float(x)
    except Exception:
        return None


def _declared(declared_dtype: str | None):
    import torch
    try:
        d = getattr(torch, str(declared_dtype)) if declared_dtype else None
    except AttributeError:
        return None
    return d if isinstance(d, torch.dtype) else None


def _kind(d) -> str:
    import torch
    return "bool" if d == torch.bool else "complex" if d.is_complex else "float" if d.is_floating_point else "int"


def _same_kind(a, b) -> bool:
    return _kind(a) == _kind(b)


def _same_but_unit_dims(a: Any, b: Any) -> bool:
    return [d for d in a if d != 1] == [d for d in b if d != 1]


def compare(ref_raw: Any, out_raw: Any, *, tolerances: Mapping[str, Any] | None = None,
            custom_check: Callable[..., Any] | None = None, row: Any = None,
            declared_dtype: str | None = None) -> Check:
    """Compare the candidate's outputs with the reference's. Both are a tensor or a tuple/list of them.

    `declared_dtype` is the case's ``dtype`` column: a reference Model may compute in a wider type than the op
    declares (NPUKernelBench's Arange returns int64 for an int32 case; some matmul references return fp32 for
    fp16), so an output in exactly the declared dtype, of the same kind as the reference's, is accepted and
    compared at the declared dtype's tolerance. Any other floating output in another floating dtype than the
    reference's is compared by value at the reference dtype's tolerance: the task's own binding allocates the
    outputs, and NPUKernelBench compares such outputs by value (DeepNorm's binding returns float32 mean/rstd for a
    float16 reference); a narrower output gains no tolerance by it. Any other dtype difference is ``dtype_mismatch``.
    """
    import torch
    declared = _declared(declared_dtype)
    tol_dtypes: dict[int, Any] = {}
    refs, outs = as_list(ref_raw), as_list(out_raw)
    if len(refs) != len(outs):
        return Check(Verdict.SHAPE_MISMATCH, f"candidate returned {len(outs)} output(s), reference {len(refs)}")
    cpu_outs = []
    for i, (r, o) in enumerate(zip(refs, outs)):
        if isinstance(r, torch.Tensor):
            if not isinstance(o, torch.Tensor):
                return Check(Verdict.SHAPE_MISMATCH, f"output {i}: candidate returned {type(o).__name__}, "
                                                     f"expected a tensor of shape {list(r.shape)}")
            o = o.detach().cpu()
            if tuple(o.shape) != tuple(r.shape) and _same_but_unit_dims(o.shape, r.shape):
                # NPUKernelBench compares flattened outputs, and some task bindings return [1] for a 0-d
                # reference: shapes equal but for size-1 dimensions carry the same values, so compare them.
                o = o.reshape(r.shape)
            if tuple(o.shape) != tuple(r.shape):
                return Check(Verdict.SHAPE_MISMATCH,
                             f"output {i}: shape {list(o.shape)}, expected {list(r.shape)}")
            if custom_check is None and o.dtype != r.dtype:
                if o.dtype == declared and _same_kind(o.dtype, r.dtype):
                    tol_dtypes[i] = o.dtype
                elif not (o.is_floating_point() and r.is_floating_point()):
                    return Check(Verdict.DTYPE_MISMATCH,
                                 f"output {i}: dtype {dtype_name(o.dtype)}, expected {dtype_name(r.dtype)}")
            if o.dtype == r.dtype or (o.is_floating_point() and r.is_floating_point()):
                nf = _nonfinite_check(i, r, o.to(r.dtype) if o.dtype != r.dtype else o)
                if nf:
                    return nf
        cpu_outs.append(o)
    if custom_check is not None:
        out_for_check = cpu_outs if isinstance(out_raw, (list, tuple)) else cpu_outs[0]
        try:
            res = custom_check(row, ref_raw, out_for_check)
        except Exception as e:  # a task checker that raises on the candidate's output counts against it
            return Check(Verdict.VALUE_MISMATCH, f"task custom_check_precision raised {type(e).__name__}: {e}")
        ok, abs_d, rel_d = (res if isinstance(res, (tuple, list)) else (res, None, None))[:3]
        max_abs, max_rel = _max_of(abs_d), _max_of(rel_d)
        if not bool(ok):
            return Check(Verdict.VALUE_MISMATCH,
                         f"task custom_check_precision rejected the output (max abs err {max_abs}, "
                         f"max rel err {max_rel})", max_abs, max_rel)
        return Check(Verdict.OK, "", max_abs, max_rel, 0.0)
    worst = Check(Verdict.OK, "", 0.0, 0.0, 0.0)
    for i, (r, o) in enumerate(zip(refs, cpu_outs)):
        if not isinstance(r, torch.Tensor):
            if r != o and not (isinstance(r, float) and isinstance(o, float) and abs(r - o) <= 1e-6 * max(1, abs(r))):
                return Check(Verdict.VALUE_MISMATCH, f"output {i}: {o!r}, expected {r!r}")
            continue
        c = _value_check(i, r, o, tolerances, tol_dtypes.get(i))
        if c.verdict != Verdict.OK:
            return c
        worst.max_abs_err = max(worst.max_abs_err or 0.0, c.max_abs_err or 0.0)
        worst.max_rel_err = max(worst.max_rel_err or 0.0, c.max_rel_err or 0.0)
    return worst


def nkb_check_precision(outputs: Any, outputs_new: Any, max_abs_error: float = 1e-3,
                        max_rel_error: float = 1e-3) -> tuple[int, Any, Any]:
    """NPUKernelBench's default element rule, re-implemented from its description (npukernelbench-format §1.5).

    Returns (pass01, abs_diff, rel_diff). Used by task checkers that call ``framework.utils.check_precision``.
    """
    import torch
    refs, outs = as_list(outputs), as_list(outputs_new)
    if len(refs) != len(outs):
        return 0, None, None
    ok, abs_all, rel_all = 1, [], []
    for r, o in zip(refs, outs):
        r = torch.as_tensor(r).detach().cpu()
        o = torch.as_tensor(o).detach().cpu()
        if r.dtype == torch.bool:
            r = r.to(torch.int32)
        if o.dtype == torch.bool:
            o = o.to(torch.int32)
        wide = torch.complex128 if (r.is_complex() or o.is_complex()) else torch.float64
        r64, o64 = r.to(wide), o.to(wide)
        abs_d = (r64 - o64).abs()
        rel_d = abs_d / (r64.abs() + REL_EPS)
        if not (torch.isfinite(r64).all() and torch.isfinite(o64).all() and torch.isfinite(abs_d).all()
                and torch.isfinite(rel_d).all()):
            ok = 0
        elif bool(((abs_d > max_abs_error) & (rel_d > max_rel_error)).any()):
            ok = 0
        abs_all.append(abs_d)
        rel_all.append(rel_d)
    if len(abs_all) == 1:
        return ok, abs_all[0], rel_all[0]
    return ok, abs_all, rel_all
