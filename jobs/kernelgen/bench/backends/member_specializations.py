"""In-class explicit specialisations of member class templates, which the device compiler (clang, after CWG 727)
accepts and g++ rejects ("explicit specialization in non-namespace scope"):

    template <class T> struct Helper { using type = typename T::Layout; };
    template <> struct Helper<void> { using type = void; };          // inside a class body

g++ does take a *partial* specialisation there, so the primary gets one more, defaulted parameter and each explicit
specialisation becomes a partial one on it, which selects the same definitions:

    template <class T, class ascsim_spec_ = void> struct Helper { ... };
    template <class ascsim_spec_> struct Helper<void, ascsim_spec_> { ... };

Namespace-scope specialisations are left alone; so are members whose primary ends in a parameter pack or whose
specialisation leaves parameters to their defaults (no equivalent rewrite; g++ then reports the original error).
"""
from __future__ import annotations

import re

_MASK_RX = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_SPEC_RX = re.compile(r"\btemplate\s*<\s*>\s*(?:struct|class)\s+(\w+)\s*<")
_TEMPLATE_HEAD_RX = re.compile(r"\s*template\s*<")
_CLASS_HEAD_RX = re.compile(r"\s*(?:class|struct|union)\b")
_PARAM = "ascsim_spec_"


def _masked(text: str) -> str:
    """`text` with comments and literals blanked (same length), so braces and brackets in them are not code."""
    return _MASK_RX.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _close(code: str, start: int) -> int:
    """Index just past the `>` that closes the `<` at `start` (parentheses nest; `>>` closes two)."""
    depth, paren, i = 0, 0, start
    while i < len(code):
        ch = code[i]
        if ch in "([{":
            paren += 1
        elif ch in ")]}":
            paren -= 1
        elif paren == 0 and ch == "<":
            depth += 1
        elif paren == 0 and ch == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _top_level_commas(code: str) -> int:
    depth = 0
    n = 0
    for ch in code:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n


def _strip_template_heads(head: str) -> str:
    while True:
        m = _TEMPLATE_HEAD_RX.match(head)
        if not m:
            return head
        end = _close(head, m.end() - 1)
        if end < 0:
            return head
        head = head[end:]


def _scopes(code: str) -> list[tuple[int, int, bool]]:
    """(open, close, is_class) of every brace pair; a class body is a `{` whose declaration head (after any template
    heads) starts with class/struct/union and has no `=` (an initialiser)."""
    out, stack, last = [], [], 0
    for i, ch in enumerate(code):
        if ch == "{":
            head = _strip_template_heads(code[last:i])
            stack.append((i, bool(_CLASS_HEAD_RX.match(head)) and "=" not in head))
            last = i + 1
        elif ch == "}":
            if stack:
                o, is_class = stack.pop()
                out.append((o, i, is_class))
            last = i + 1
        elif ch == ";":
            last = i + 1
    return out


def _innermost(scopes: list[tuple[int, int, bool]], pos: int) -> tuple[int, int, bool] | None:
    inside = [s for s in scopes if s[0] < pos < s[1]]
    return max(inside, key=lambda s: s[0]) if inside else None


def rewrite(text: str) -> str:
    """`text` with in-class explicit specialisations of member class templates turned into partial ones."""
    code = _masked(text)
    if not _SPEC_RX.search(code):
        return text
    scopes = _scopes(code)
    edits: list[tuple[int, int, str]] = []     # (start, end, replacement) on the original text
    primaries_done: set[tuple[int, str]] = set()
    for m in _SPEC_RX.finditer(code):
        scope = _innermost(scopes, m.start())
        if scope is None or not scope[2]:
            continue
        name = m.group(1)
        args_end = _close(code, m.end() - 1)
        if args_end < 0:
            continue
        primary = _primary(code, scopes, scope, name, m.start())
        if primary is None:
            continue
        params_open, params_close = primary
        params = code[params_open + 1:params_close - 1]
        if "..." in params or _top_level_commas(params) != _top_level_commas(code[m.end():args_end - 1]):
            continue
        if (scope[0], name) not in primaries_done:
            primaries_done.add((scope[0], name))
            edits.append((params_close - 1, params_close - 1, f", class {_PARAM} = void"))
        empty = re.search(r"<\s*>", code[m.start():m.end()])     # `template <>`, line breaks kept
        edits.append((m.start() + empty.start(), m.start() + empty.end(), f"<class {_PARAM}>"))
        edits.append((args_end - 1, args_end - 1, f", {_PARAM}"))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _primary(code: str, scopes: list[tuple[int, int, bool]], scope: tuple[int, int, bool], name: str,
             before: int) -> tuple[int, int] | None:
    """(index of `<`, index past `>`) of the parameter list of `name`'s primary template in the same class body."""
    for t in re.finditer(r"\btemplate\s*<", code[scope[0]:before]):
        lt = scope[0] + t.end() - 1
        gt = _close(code, lt)
        if gt < 0 or not re.match(rf"\s*(?:struct|class)\s+{name}\b\s*(?:final\b\s*)?[:{{;]", code[gt:]):
            continue
        if _innermost(scopes, lt) != scope:
            continue
        return lt, gt
    return None
