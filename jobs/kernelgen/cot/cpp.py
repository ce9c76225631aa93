"""C++ (AscendC) parsing with tree-sitter-cpp, and the normalised token streams used for similarity.

Parsing itself (device syntax blanked, offsets kept) is `kernelgen.ascendc_syntax`.
"""
from __future__ import annotations

import re

from ..ascendc_syntax import parse, walk as _walk  # noqa: F401 - parse is part of this module's API


def char_offsets(src: str):
    """Maps tree-sitter's UTF-8 byte offsets to str indices (they differ after any non-ASCII character)."""
    data = src.encode("utf-8")
    if len(data) == len(src):
        return lambda b: b
    starts = [0] * (len(data) + 1)     # byte offset -> index of the character it falls in
    i = 0
    for ci, ch in enumerate(src):
        n = len(ch.encode("utf-8"))
        for k in range(n):
            starts[i + k] = ci
        i += n
    starts[len(data)] = len(src)
    return starts.__getitem__


def includes(src: str) -> list[tuple[str, bool, int, int]]:
    """(path, angled, start, end) of every #include directive, commented-out ones excluded; start/end index `src`
    (characters, not bytes)."""
    tree = parse(src)
    to_char = char_offsets(src)
    out = []
    for n in _walk(tree.root_node):
        if n.type == "preproc_include":
            p = n.child_by_field_name("path")
            if p is None:
                continue
            raw = p.text.decode("utf-8", "replace")
            out.append((raw[1:-1], raw.startswith("<"), to_char(n.start_byte), to_char(n.end_byte)))
    return out


def source_problem(src: str) -> str | None:
    """Why a file is not usable C++ source, or None: empty, binary (NUL bytes, or undecodable bytes that reading
    replaced with U+FFFD), or cut short (its braces do not balance once comments and literals are masked)."""
    from .tiling_tests import mask

    if not src.strip():
        return "empty"
    if "\0" in src or src.count("\ufffd") > max(2, len(src) // 1000):
        return "binary"
    m = first_branches(mask(src))
    if m.count("{") != m.count("}") or m.count("(") != m.count(")"):
        return "unbalanced"
    return None


def first_branches(src: str) -> str:
    """src with the #else/#elif branches of conditionals removed: each branch may open a signature or brace that the
    code after #endif closes, so only one branch balances."""
    out, skipping = [], []          # one flag per open #if: whether this line is in a later branch
    for line in src.splitlines(keepends=True):
        d = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b", line)
        if d and d.group(1).startswith("if"):
            skipping.append(False)
        elif d and d.group(1) in ("elif", "else") and skipping:
            skipping[-1] = True
        elif d and d.group(1) == "endif" and skipping:
            skipping.pop()
        elif not any(skipping):
            out.append(line)
    return "".join(out)


def defined_names(src: str) -> set[str]:
    """Names of the functions, classes and structs a source defines (for the name blocklist)."""
    names: set[str] = set()
    for n in _walk(parse(src).root_node):
        if n.type == "function_definition":
            d = n.child_by_field_name("declarator")
            while d is not None and d.type not in ("identifier", "field_identifier", "qualified_identifier",
                                                   "destructor_name", "operator_name"):
                d = d.child_by_field_name("declarator")
            if d is not None:
                names.add(d.text.decode("utf-8", "replace").split("::")[-1])
        elif n.type in ("class_specifier", "struct_specifier"):
            nm = n.child_by_field_name("name")
            if nm is not None and n.child_by_field_name("body") is not None:
                names.add(nm.text.decode("utf-8", "replace"))
    return names


_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?[fFuUlL]*|0[xX][0-9a-fA-F]+|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|\S")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_KEYWORDS = frozenset(["alignas", "alignof", "auto", "bool", "break", "case", "catch", "char", "class", "const", "constexpr", "continue", "decltype", "default", "delete", "do", "double", "else", "enum", "explicit", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "nullptr", "operator", "private", "protected", "public", "return", "short", "signed", "sizeof", "static", "static_cast", "reinterpret_cast", "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "half", "float16_t", "bfloat16_t", "size_t"])


def code_tokens(src: str, *, abstract_identifiers: bool = False, keep: frozenset[str] = frozenset()) -> list[str]:
    """Comment-free C++ token stream; literals bucketed. With abstract_identifiers, names not in `keep` (API
    names, keywords) become ID, which makes the stream robust to renaming."""
    src = _COMMENT.sub(" ", src)
    out = []
    for t in _TOKEN.findall(src):
        if t[0] in "\"'":
            out.append("STR")
        elif t[0].isdigit():
            out.append("NUM")
        elif abstract_identifiers and (t[0].isalpha() or t[0] == "_") and t not in _KEYWORDS and t not in keep:
            out.append("ID")
        else:
            out.append(t)
    return out


def called_names(src: str) -> set[str]:
    """Callee names (the API surface a kernel uses: DataCopy, Adds, AllocTensor...)."""
    return set(re.findall(r"\b([A-Z][A-Za-z0-9_]*)\s*(?:<[^;(){}]*>)?\s*\(", _COMMENT.sub(" ", src)))
