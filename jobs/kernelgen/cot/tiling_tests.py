"""Execution scenarios mined from an op's host tiling unit tests (gtest), in the formats operator repositories use.

Formats (the yield of each is reported per build):
- `param_object`: a parameter object (`gert::TilingContextPara para("Op", {inputs}, {outputs}, {attrs}, &compileInfo,
  "Soc", coreNum, ubSize)`) run by `ExecuteTestCase(para, status, key[, tilingData][, workspaces])`; each tensor is
  `{{{origin dims}, {storage dims}}, ge::DT_X, ge::FORMAT_X}`; the expectations are literals or local variables;
- `storage_shape`: the older context-faker setups (`gert::StorageShape x = {{dims}, {dims}};`, dtypes from
  `NodeInputTd(..., ge::DT_X, ...)`), expectations in `EXPECT_EQ`/`ASSERT_EQ` with a literal;
- `shape`: `ge::Shape({dims})` setups;
- `none`: nothing concrete in the body (parameterised `TEST_P` bodies fed from tables, helpers taking variables).
A test whose tiling call is expected to fail (`GRAPH_FAILED`, `GRAPH_PARAM_INVALID`) is a negative scenario.

Sources are scanned with comments blanked and string contents masked (same length), so braces and commas inside
string literals (JSON compile-info blobs) never confuse the structure; values are read from the unmasked text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

FORMATS = ("param_object", "storage_shape", "shape", "none")
FAIL_STATUS = re.compile(r"\bGRAPH_(?:FAILED|PARAM_INVALID)\b")

_TEST = re.compile(r"\b(?:TEST|TEST_F|TEST_P)\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*\{")
_EXPECT = re.compile(r"\b(?:EXPECT_EQ|ASSERT_EQ)\s*\(\s*([^,;]+?)\s*,\s*([^;]+?)\s*\)\s*(?:<<[^;]*)?;")
_DTYPE = re.compile(r"\b(?:ge::)?DT_([A-Z0-9_]+)\b")
_STORAGE_SHAPE = re.compile(r"\bStorageShape\s+\w+\s*(?:=\s*\{|\(|\{)")
_SHAPE = re.compile(r"\bShape\s*\(\s*\{([^{}]*)\}\s*\)")
_CORES = re.compile(r"(?i)\b(?:\w*core_?num|aiv_?num|vector_core_cnt|block_?dim_?max)\b\"?\s*[=:(,]\s*\"?(\d+)")
_UB = re.compile(r"(?i)\b(?:\w*ub_?size)\b\"?\s*[=:(,]\s*\"?(\d+)")
_SOC = re.compile(r"\"(Ascend\w+)\"")
_PARA = re.compile(r"\bTilingContextPara\s+(\w+)\s*\(")
_EXECUTE = re.compile(r"\bExecuteTestCase\s*\(")
_LOCAL = re.compile(r"\b(?:const\s+)?(?:[\w:]+(?:<[^;=<>]*>)?)\s+(\w+)\s*=\s*([^;]+);")
_INT = re.compile(r"-?\d+")
_ATTR = re.compile(r"\{?\s*\"(\w+)\"\s*,\s*[\w:]*CreateFrom\s*<[^()]*>\s*\(([^()]*)\)")


@dataclass
class Scenario:
    name: str
    shapes: list[list[Any]] = field(default_factory=list)       # ints, or the expression when not a literal
    dtypes: list[str] = field(default_factory=list)
    core_num: int | None = None
    ub_size: int | None = None
    soc: str | None = None
    expected: dict[str, Any] = field(default_factory=dict)
    attrs: dict[str, Any] = field(default_factory=dict)
    format: str = "none"
    expect_failure: bool = False

    @property
    def informative(self) -> bool:
        """Whether the test fixes anything a sample can be about (a shape, a value, or an expected failure)."""
        return bool(self.shapes or self.expected or self.expect_failure)

    def test_case(self) -> dict[str, Any]:
        case: dict[str, Any] = {"shapes": self.shapes, "dtypes": self.dtypes}
        if self.attrs:
            case["attrs"] = self.attrs
        return case

    def hardware(self) -> dict[str, Any]:
        return {k: v for k, v in (("soc", self.soc), ("vector_core_cnt", self.core_num), ("ub_size", self.ub_size))
                if v is not None}


def mask(src: str) -> str:
    """`src` with comments blanked and the insides of string/char literals replaced by '_' (same length)."""
    out = list(src)
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == "/" and src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
        elif c == "/" and src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out[i:j] = [ch if ch == "\n" else " " for ch in src[i:j]]
            i = j
        elif c == "R" and src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'R"([^()\\\s]{0,16})\(', src[i:])
            if not m:
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            j = src.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            out[i + 2:j - 1] = [ch if ch == "\n" else "_" for ch in src[i + 2:j - 1]]
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j, n - 1)
            out[i + 1:j] = "_" * (j - i - 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _close(masked: str, open_at: int) -> int:
    """Index of the bracket closing the one at `open_at` (any of ({[), or len(masked) when unbalanced."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    stack = []
    for i in range(open_at, len(masked)):
        c = masked[i]
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")}]":
            if not stack or stack.pop() != c:
                return len(masked)
            if not stack:
                return i
    return len(masked)


def split_top(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) spans of the comma-separated items of masked[start:end], ignoring commas nested in brackets."""
    spans, depth, s = [], 0, start
    for i in range(start, end):
        c = masked[i]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((s, i))
            s = i + 1
    spans.append((s, end))
    return [(a, b) for a, b in spans if masked[a:b].strip()]


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


class _Body:
    """One TEST body: original text (comments blanked) and its masked twin, plus its local constants."""

    def __init__(self, text: str, masked: str):
        self.text, self.masked = text, masked
        self.locals: dict[str, str] = {}
        for m in _LOCAL.finditer(masked):
            a, b = _strip(text, m.start(2), m.end(2))
            self.locals.setdefault(m.group(1), text[a:b])

    def value(self, expr: str, depth: int = 0) -> Any:
        """A literal's value; an identifier is looked up among the body's locals (one level of indirection at a
        time, a few levels deep); anything else is returned as its text."""
        expr = expr.strip()
        if re.fullmatch(r"-?0[xX][0-9a-fA-F]+[uUlL]*", expr):
            return int(expr.rstrip("uUlL"), 16)
        if re.fullmatch(r"-?\d+[uUlL]*", expr):
            return int(expr.rstrip("uUlL"))
        if re.fullmatch(r"-?\d*\.\d+(?:[eE]-?\d+)?[fF]?", expr):
            return float(expr.rstrip("fF"))
        if re.fullmatch(r'"(?:[^"\\]|\\.)*"', expr):
            return expr[1:-1]
        if expr in ("true", "false"):
            return expr == "true"
        if expr.startswith("{") and expr.endswith("}"):
            inner = expr[1:-1]
            items = [x.strip() for x in inner.split(",") if x.strip()]
            if "{" not in inner:
                return [self.value(x, depth + 1) for x in items]
        if re.fullmatch(r"[A-Za-z_]\w*", expr) and expr in self.locals and depth < 4:
            return self.value(self.locals[expr], depth + 1)
        return expr

    def dims(self, a: int, b: int) -> list[Any]:
        return [self.value(self.text[x:y]) for x, y in split_top(self.masked, a, b)]


def _first_group(masked: str, a: int, b: int) -> tuple[int, int] | None:
    """The span inside the first {...} in masked[a:b]."""
    i = masked.find("{", a, b)
    if i < 0:
        return None
    return i + 1, _close(masked, i)


def _tensor(body: _Body, a: int, b: int) -> tuple[list[Any] | None, str | None]:
    """(origin dims, dtype) of one `{{{dims}, {dims}}, ge::DT_X, ...}` tensor description."""
    inner = _first_group(body.masked, a, b)
    if inner is None:
        return None, None
    items = split_top(body.masked, *inner)
    if not items:
        return None, None
    shape = None
    g = _first_group(body.masked, *items[0])          # {{dims}, {dims}} -> {dims}
    if g is not None:
        g2 = _first_group(body.masked, *g)
        shape = body.dims(*g2) if g2 is not None else body.dims(*g)
    dt = _DTYPE.search(body.masked[inner[0]:inner[1]])
    return shape, (dt.group(1).lower() if dt else None)


def _param_object(sc: Scenario, body: _Body, para_var: str | None) -> bool:
    for m in _PARA.finditer(body.masked):
        if para_var and m.group(1) != para_var:
            continue
        open_at = m.end() - 1
        args = split_top(body.masked, open_at + 1, _close(body.masked, open_at))
        groups = [s for s in args if body.masked[s[0]:s[1]].lstrip().startswith("{")]
        for which in groups[:2]:                       # inputs, then outputs
            g = _first_group(body.masked, *which)
            for t in split_top(body.masked, *g) if g else []:
                shape, dt = _tensor(body, *t)
                if shape is not None:
                    sc.shapes.append(shape)
                if dt:
                    sc.dtypes.append(dt)
        for a, b in groups[2:3]:
            for am in _ATTR.finditer(body.text[a:b]):
                sc.attrs[am.group(1)] = body.value(am.group(2))
        info = next((i for i, (a, b) in enumerate(args) if body.masked[a:b].strip().startswith("&")), None)
        tail = [body.value(body.text[a:b]) for a, b in args[info + 1:]] if info is not None else []
        if tail and isinstance(tail[0], str) and tail[0].startswith("Ascend"):
            sc.soc = tail[0]
            nums = [v for v in tail[1:3] if isinstance(v, int)]
            if len(nums) == 2:
                sc.core_num, sc.ub_size = nums
        return True
    return False


def _execute(sc: Scenario, body: _Body, m: re.Match) -> str | None:
    """Expectations of one ExecuteTestCase(...) call; returns the parameter object's variable name."""
    open_at = m.end() - 1
    args = split_top(body.masked, open_at + 1, _close(body.masked, open_at))
    texts = [body.text[a:b].strip() for a, b in args]
    if len(texts) >= 2 and FAIL_STATUS.search(texts[1]):
        sc.expect_failure = True
    for t in texts[2:]:
        v = body.value(t)
        if isinstance(v, int) and "tilingKey" not in sc.expected:
            sc.expected["tilingKey"] = v
        elif isinstance(v, str) and re.fullmatch(r"[\d\s.-]+", v) and v.strip():
            sc.expected["tilingData"] = v.strip()
        elif isinstance(v, list) and all(isinstance(x, int) for x in v):
            sc.expected["workspaces"] = v
    return texts[0] if texts else None


def _hardware(sc: Scenario, body: _Body) -> None:
    if sc.core_num is None and (c := _CORES.search(body.text)):
        sc.core_num = int(c.group(1))
    if sc.ub_size is None and (u := _UB.search(body.text)):
        sc.ub_size = int(u.group(1))
    if sc.core_num is None and sc.ub_size is None:
        # `XCompileInfo compileInfo = {64, 262144};`: the two-field compile info of element-wise ops is (cores, UB
        # bytes); taken only when the values look like that.
        m = re.search(r"\b\w*[Cc]ompile_?[Ii]nfo\s*=\s*\{\s*(\d+)\s*,\s*(\d+)\s*\}", body.masked)
        if m and int(m.group(1)) <= 1024 and int(m.group(2)) >= 16384:
            sc.core_num, sc.ub_size = int(m.group(1)), int(m.group(2))
    if sc.soc is None and (s := _SOC.search(body.text)):
        sc.soc = s.group(1)


def _storage_shapes(body: _Body) -> list[list[Any]]:
    shapes = []
    for m in _STORAGE_SHAPE.finditer(body.masked):
        open_at = m.end() - 1                          # the outer `{` or `(`; the origin dims are its first group
        g = _first_group(body.masked, open_at + 1, _close(body.masked, open_at))
        if g is not None:
            shapes.append(body.dims(*g))
    return shapes


def field_name(expr: str) -> str:
    """`tiling.blockLength` → blockLength, `ctx->GetBlockDim()` → blockDim, `GetTilingKey()` → tilingKey."""
    expr = expr.strip()
    m = re.search(r"Get(\w+)\s*\(\s*\)\s*$", expr)
    if m:
        name = m.group(1)
        return name[0].lower() + name[1:]
    m = re.search(r"(\w+)\s*(?:\[\s*\d+\s*\])?\s*$", expr)
    return m.group(1) if m else expr


_LITERAL = re.compile(r"-?[\d.]+[uUlLfF]*|\"[^\"]*\"")


def mine_scenarios(src: str) -> list[Scenario]:
    """One Scenario per gtest TEST/TEST_F/TEST_P block (one per ExecuteTestCase call when a block has several)."""
    masked = mask(src)
    text = "".join(s if m != " " or s == "\n" else " " for s, m in zip(src, masked))   # comments blanked
    out = []
    for t in _TEST.finditer(masked):
        open_at = t.end() - 1
        end = _close(masked, open_at)
        body = _Body(text[open_at + 1:end], masked[open_at + 1:end])
        name = f"{t.group(1)}.{t.group(2)}"
        calls = list(_EXECUTE.finditer(body.masked)) or [None]
        for i, call in enumerate(calls):
            sc = Scenario(name=name if len(calls) == 1 else f"{name}#{i + 1}")
            para = _execute(sc, body, call) if call else None
            if _param_object(sc, body, para):
                sc.format = "param_object"
            else:
                shapes = _storage_shapes(body)
                if shapes:
                    sc.format, sc.shapes = "storage_shape", shapes
                elif (plain := _SHAPE.findall(body.masked)):
                    sc.format = "shape"
                    sc.shapes = [[int(x) for x in _INT.findall(d)] for d in plain]
                sc.dtypes = [d.lower() for d in _DTYPE.findall(body.masked)]
                for lhs, rhs in _EXPECT.findall(body.text):
                    if FAIL_STATUS.search(rhs) or FAIL_STATUS.search(lhs):
                        sc.expect_failure = True
                    # gtest convention is EXPECT_EQ(actual, expected), but both orders occur: the literal is the value.
                    elif _LITERAL.fullmatch(rhs.strip()):
                        sc.expected[field_name(lhs)] = body.value(rhs.rstrip("fF") if "." in rhs else rhs)
                    elif _LITERAL.fullmatch(lhs.strip()):
                        sc.expected[field_name(rhs)] = body.value(lhs.rstrip("fF") if "." in lhs else lhs)
            _hardware(sc, body)
            out.append(sc)
    return out
