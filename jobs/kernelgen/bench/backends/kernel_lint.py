"""Device-code lint for candidate op_kernel sources: C++ the device compiler rejects but g++ (the simulator) accepts.

The CANN programming guide's C++-support appendix (asc-devkit `docs/zh/guide/技术附录/CPP标准支持/语法限制/特性.md`)
lists what device code cannot use: virtual functions, virtual inheritance, runtime recursion, dynamic malloc/new/free,
the STL, runtime typeid, file-system IO, and standard-library tuple/algorithm calls (library functions must be
`__aicore__`). AscendC's own debug APIs (`printf`/`PRINTF`, `DumpTensor`, `assert`/`ASSERT`) are device functions and
are allowed. This module reports those constructs as compiler-style diagnostics:

    op_kernel/x.cpp:12:5: error: virtual functions are not supported in AscendC device code

Errors are constructs the guide rules out; warnings are uses whose verdict on the device compiler is uncertain
(std:: math, std::min/max, placement new, exceptions, overload-ambiguous recursion). The scan uses tree-sitter-cpp
(comments and string literals never match); without it, a regex scan over comment/string-blanked text covers every
rule except recursion. Code inside `#ifdef __CCE_KT_TEST__` / `ASCENDC_CPU_DEBUG` branches is CPU-only and skipped.

Against evasion (issue 15): with `expand_macros` the compiled sources are linted a second time with the candidate's
own macros expanded (macro_expand.py), `namespace x = std` aliases count as `std`, and inline assembly is an error.
`lint_host_sources` holds op_host to the host rules only (inline assembly): ordinary C++ is fine on the host.

Both hold candidate code to one more rule: it may not name the simulator's own internals (`ascsim...`, `ASCSIM_...`).
They do not exist in the device toolkit, and they reach what no toolkit API gives: the host memory behind a device
address (an L2 writing a result on the host), the GM model, the launch. Checked on the candidate's raw text only
(the toolkit's own macros expand into such names).
"""
from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...ascendc_syntax import blank_device_syntax, parser, walk
from ..model import CompileErrorClass

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hxx", ".inc", ".inl")
CPU_ONLY_MACROS = ("__CCE_KT_TEST__", "ASCENDC_CPU_DEBUG")

# rule -> compile-error class of the diagnostic (language features the device dialect lacks are SYNTAX-like;
# heap use is a memory-object misuse; host-only library names are missing from device scope)
RULE_CLASS: dict[str, CompileErrorClass] = {
    "virtual": CompileErrorClass.SYNTAX,
    "virtual-inheritance": CompileErrorClass.SYNTAX,
    "recursion": CompileErrorClass.SYNTAX,
    "typeid": CompileErrorClass.SYNTAX,
    "exceptions": CompileErrorClass.SYNTAX,
    "dynamic-allocation": CompileErrorClass.MEMORY_OBJECT,
    "stl": CompileErrorClass.SCOPE,
    "host-io": CompileErrorClass.SCOPE,
    "host-call": CompileErrorClass.SCOPE,
    "inline-asm": CompileErrorClass.SCOPE,
    "preprocess": CompileErrorClass.OTHER,
    "simulator-internal": CompileErrorClass.SCOPE,
}
# what op_host code is held to: ordinary C++ is fine on the host, but inline assembly would reach the kernel
# (raw syscalls) past the host objects' symbol deny-list (symbols.host_violations)
HOST_RULES = frozenset({"inline-asm", "preprocess", "simulator-internal"})
COMPILED_SUFFIXES = (".cpp", ".cc", ".cxx", ".c")

# std:: types: heap-backed containers, strings, streams, smart pointers, std::function and std::tuple (named by the guide)
STL_ERROR_TYPES = frozenset([
    "vector", "string", "wstring", "u16string", "u32string", "basic_string", "map", "multimap", "unordered_map",
    "unordered_multimap", "set", "multiset", "unordered_set", "unordered_multiset", "list", "forward_list", "deque",
    "queue", "priority_queue", "stack", "shared_ptr", "unique_ptr", "weak_ptr", "function", "stringstream",
    "istringstream", "ostringstream", "basic_stringstream", "ifstream", "ofstream", "fstream", "basic_ifstream",
    "basic_ofstream", "thread", "mutex", "regex", "any", "tuple"
])
STL_WARN_TYPES = frozenset(["array", "pair", "optional", "variant", "bitset", "string_view", "span", "valarray"])
ALLOC_FUNCS = frozenset([
    "malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", "memalign", "valloc"
])
STD_ALLOC_FUNCS = ALLOC_FUNCS | {"make_shared", "make_unique", "allocate_shared"}
IO_STREAMS = frozenset(["cout", "cerr", "clog", "cin", "wcout", "wcerr", "endl"])
FILE_IO_FUNCS = frozenset([
    "fopen", "fclose", "fread", "fwrite", "fprintf", "fscanf", "fputs", "fgets", "fputc", "fgetc", "fflush", "fseek",
    "ftell", "scanf", "sscanf", "puts", "putchar", "getchar", "perror", "remove", "rename", "tmpfile"
])
STD_ALGORITHMS = frozenset([
    "sort", "stable_sort", "partial_sort", "nth_element", "find", "find_if", "find_if_not", "count", "count_if",
    "accumulate", "reduce", "transform", "for_each", "copy", "copy_if", "copy_n", "fill", "fill_n", "reverse", "unique",
    "lower_bound", "upper_bound", "binary_search", "equal_range", "iota", "max_element", "min_element",
    "minmax_element", "make_tuple", "tie", "tuple_cat", "forward_as_tuple", "make_pair", "shuffle", "rotate",
    "partition", "merge", "inner_product", "partial_sum", "adjacent_difference", "all_of", "any_of", "none_of",
    "remove_if", "replace", "replace_if", "generate"
])
STD_MATH = frozenset([
    "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "fabs", "abs", "floor", "ceil",
    "round", "trunc", "fmod", "fmin", "fmax", "isnan", "isinf", "isfinite", "hypot", "lgamma", "tgamma", "rint",
    "nearbyint", "lround", "llround", "lrint", "copysign", "signbit", "frexp", "ldexp", "modf", "remainder", "fma"
])
STD_UTIL_WARN = frozenset(["min", "max", "clamp", "swap", "minmax"])


@dataclass(frozen=True)
class Finding:
    file: str            # "op_kernel/<rel>"
    line: int            # 1-based
    col: int             # 1-based (bytes, like the compilers)
    rule: str
    severity: str        # "error" | "warning"
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message} [-Wdevice-{self.rule}]"


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    backend: str = "tree-sitter"     # or "regex" (tree-sitter-cpp not installed: no recursion check)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def error_class(self) -> CompileErrorClass | None:
        errs = self.errors
        return RULE_CLASS.get(errs[0].rule, CompileErrorClass.OTHER) if errs else None

    def render(self, severity: str | None = None) -> str:
        return "\n".join(str(f) for f in self.findings if severity is None or f.severity == severity)


# ------------------------------------------------------------------------------------------------ entry point --
def lint_kernel_sources(sources: dict[str, str], prefix: str = "op_kernel/", expand_macros: bool = False) -> LintResult:
    """Lint the candidate's op_kernel sources ({path relative to op_kernel: text}); findings sorted by position.

    expand_macros: also lint each compiled source with the candidate's own macros expanded (macro_expand; runs the
    preprocessor in the build sandbox), so `#define` cannot hide a construct; its findings point at the use."""
    res = _lint_raw(sources, prefix)
    res.findings.extend(_internal_names(sources, prefix))
    if expand_macros:
        res.findings.extend(_expanded_findings(sources, prefix, res.findings))
    res.findings = sorted(set(res.findings), key=lambda f: (f.severity != "error", f.file, f.line, f.col, f.rule))
    return res


def lint_host_sources(sources: dict[str, str], prefix: str = "op_host/", expand_macros: bool = False) -> LintResult:
    """The host rules (HOST_RULES) over the candidate's op_host sources, raw and (optionally) macro-expanded."""
    res = lint_kernel_sources(sources, prefix, expand_macros)
    res.findings = [f for f in res.findings if f.rule in HOST_RULES]
    return res


_INTERNAL_RX = re.compile(r"\b((?:ascsim|ASCSIM)(?:_\w*)?)\b")


def _internal_names(sources: dict[str, str], prefix: str) -> list[Finding]:
    """Names of the simulator's internals in the candidate's own text (comments and strings blanked)."""
    out = []
    for rel, text in sorted(sources.items()):
        if not rel.lower().endswith(SOURCE_SUFFIXES):
            continue
        for n, line in enumerate(_strip(text).splitlines(), 1):
            for m in _INTERNAL_RX.finditer(line):
                out.append(Finding(prefix + rel, n, m.start(1) + 1, "simulator-internal", "error",
                                   f"'{m.group(1)}' names the simulator's internals, which the device toolkit does not have"))
    return out


def _expanded_findings(sources: dict[str, str], prefix: str, raw: list[Finding]) -> list[Finding]:
    from .macro_expand import ExpandError, expand
    srcs = {rel: text for rel, text in sources.items() if rel.lower().endswith(SOURCE_SUFFIXES)}
    units = [rel for rel in srcs if rel.lower().endswith(COMPILED_SUFFIXES)]
    if not units:
        return []
    try:
        expanded = expand(srcs)
    except ExpandError as e:
        return [Finding(prefix + sorted(units)[0], 1, 1, "preprocess", "error",
                        f"{e} (sources are linted after macro expansion; fix the preprocessor error)")]
    seen = {(f.file, f.line, f.rule) for f in raw}
    out = []
    lint = _lint_raw({rel: expanded[rel].text for rel in units}, prefix)
    for f in lint.findings:
        rel = f.file[len(prefix):]
        line_idx = f.line - 1
        origin = expanded[rel].origin
        ofile, oline = origin[line_idx] if 0 <= line_idx < len(origin) else ("", 0)
        if not ofile or (prefix + ofile, oline, f.rule) in seen:
            continue
        seen.add((prefix + ofile, oline, f.rule))
        out.append(Finding(prefix + ofile, oline, f.col, f.rule, f.severity, f"{f.message} (after macro expansion)"))
    return out


def _lint_raw(sources: dict[str, str], prefix: str) -> LintResult:
    srcs = {rel: text for rel, text in sources.items() if rel.lower().endswith(SOURCE_SUFFIXES)}
    ts = parser()
    if ts is None:
        res = LintResult(backend="regex")
        for rel, text in sorted(srcs.items()):
            res.findings.extend(_regex_lint(prefix + rel, text))
    else:
        res = LintResult(backend="tree-sitter")
        try:
            res.findings.extend(_TreeLint(ts, {prefix + rel: text for rel, text in srcs.items()}).run())
        except (RecursionError, ValueError, AttributeError, TypeError, IndexError, KeyError):
            # a lint bug must not turn a candidate into an infrastructure error: fall back to the regex scan
            res = LintResult(backend="regex")
            for rel, text in sorted(srcs.items()):
                res.findings.extend(_regex_lint(prefix + rel, text))
    return res


@functools.lru_cache(maxsize=1)
def _api_names() -> frozenset[str]:
    """Identifiers called or declared as functions in the simulator's AscendC headers (possible overload partners)."""
    root = Path(__file__).resolve().parents[4] / "sim" / "include"
    names: set[str] = set()
    if root.is_dir():
        rx = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^<>;(){}]*>)?\s*\(")
        for p in root.rglob("*.h"):
            names.update(rx.findall(p.read_text(errors="replace")))
    return frozenset(names)


# ------------------------------------------------------------------------------------------ tree-sitter scan --
@dataclass
class _Func:
    file: str
    node: object
    cls: str | None          # enclosing/qualifying class name
    ns: str                  # innermost namespace ("" at global scope)
    name: str
    min_args: int
    max_args: float
    tmpl: bool               # function template: a deduced call may reach another instantiation (not recursion)

    @property
    def label(self) -> str:
        return f"{self.cls}::{self.name}" if self.cls else (f"{self.ns}::{self.name}" if self.ns else self.name)


def _txt(node) -> str:
    return node.text.decode("utf-8", "replace")


class _TreeLint:
    def __init__(self, parser, sources: dict[str, str]):
        self.parser = parser
        self.trees = {f: parser.parse(blank_device_syntax(t).encode()) for f, t in sorted(sources.items())}
        self.findings: list[Finding] = []
        self.user_funcs: set[str] = set()
        self.funcs: list[_Func] = []
        self.classes: dict[str, set[str]] = {}    # class name -> member function names
        self.using_std = False
        self.std_aliases: set[str] = set()   # `namespace s = std;`: s::vector is std::vector

    def add(self, file: str, node, rule: str, severity: str, message: str) -> None:
        if self._cpu_only(node):
            return
        row, col = node.start_point
        self.findings.append(Finding(file, row + 1, col + 1, rule, severity, message))

    def run(self) -> list[Finding]:
        for f, tree in self.trees.items():
            self._collect(f, tree.root_node)
        for f, tree in self.trees.items():
            self._scan(f, tree.root_node)
        self._recursion()
        return self.findings

    # -- helpers ------------------------------------------------------------------------------------------------
    @staticmethod
    def _cpu_only(node) -> bool:
        """Inside a preprocessor branch taken only when the CPU-debug macros are defined?"""
        child, n = node, node.parent
        while n is not None:
            if n.type in ("preproc_ifdef", "preproc_if"):
                in_else = any(c.id == child.id for c in n.children_by_field_name("alternative"))
                cpu_then = None
                if n.type == "preproc_ifdef":
                    name = n.child_by_field_name("name")
                    if name is not None and _txt(name) in CPU_ONLY_MACROS:
                        cpu_then = _txt(n.children[0]).strip() == "#ifdef"
                else:
                    cond = n.child_by_field_name("condition")
                    ctext = re.sub(r"\s+", "", _txt(cond)) if cond is not None else ""
                    for m in CPU_ONLY_MACROS:
                        if ctext in (m, f"defined({m})", f"defined{m}"):
                            cpu_then = True
                        elif ctext in (f"!{m}", f"!defined({m})", f"!defined{m}"):
                            cpu_then = False
                if cpu_then is not None and cpu_then != in_else:
                    return True
            child, n = n, n.parent
        return False

    @staticmethod
    def _decl_name(decl):
        """(name node, function_declarator) of a function definition/declaration's declarator, or (None, None)."""
        d = decl
        while d is not None and d.type != "function_declarator":
            d = d.child_by_field_name("declarator")
        if d is None:
            return None, None
        return d.child_by_field_name("declarator"), d

    @staticmethod
    def _arity(fdecl) -> tuple[int, float, bool]:
        params = fdecl.child_by_field_name("parameters")
        lo, hi, variadic = 0, 0, False
        for p in params.named_children if params is not None else []:
            if p.type == "parameter_declaration":
                if _txt(p).strip() == "void" and len(params.named_children) == 1:
                    continue
                lo += 1
                hi += 1
            elif p.type == "optional_parameter_declaration":
                hi += 1
            elif p.type in ("variadic_parameter_declaration",):
                variadic = True
        if any(c.type == "..." for c in (params.children if params is not None else [])):
            variadic = True
        return lo, (float("inf") if variadic else hi), variadic

    def _scope(self, node) -> tuple[str | None, str]:
        cls, ns = None, ""
        n = node.parent
        while n is not None:
            if cls is None and n.type in ("class_specifier", "struct_specifier", "union_specifier"):
                nm = n.child_by_field_name("name")
                if nm is not None:
                    cls = self._base_name(nm)
            if not ns and n.type == "namespace_definition":
                nm = n.child_by_field_name("name")
                ns = _txt(nm) if nm is not None else ""
            n = n.parent
        return cls, ns

    @staticmethod
    def _base_name(node) -> str:
        """`Foo<T>` -> Foo, `A::B` -> B."""
        if node.type in ("template_type", "template_function"):
            node = node.child_by_field_name("name") or node
        if node.type == "qualified_identifier":
            inner = node.child_by_field_name("name")
            return _TreeLint._base_name(inner) if inner is not None else _txt(node)
        return _txt(node).split("::")[-1].strip()

    # -- pass 1: definitions -------------------------------------------------------------------------------------
    def _collect(self, file: str, root) -> None:
        for n in walk(root):
            if n.type == "using_declaration" and re.sub(r"\s+", " ", _txt(n)).startswith("using namespace std"):
                self.using_std = True
            if n.type == "namespace_alias_definition":
                nm = n.child_by_field_name("name")
                target = n.named_children[-1] if n.named_children else None
                if nm is not None and target is not None and _txt(target).replace(" ", "").lstrip(":") == "std":
                    self.std_aliases.add(_txt(nm))
            if n.type not in ("function_definition", "field_declaration", "declaration"):
                continue
            name_node, fdecl = self._decl_name(n.child_by_field_name("declarator"))
            if name_node is None:
                continue
            cls, ns = self._scope(n)
            qual = None
            if name_node.type == "qualified_identifier":
                scope = name_node.child_by_field_name("scope")
                qual = self._base_name(scope) if scope is not None else None
                inner = name_node.child_by_field_name("name")
                while inner is not None and inner.type == "qualified_identifier":
                    scope = inner.child_by_field_name("scope")
                    qual = self._base_name(scope) if scope is not None else qual
                    inner = inner.child_by_field_name("name")
                name_node = inner
            if name_node is None or name_node.type not in ("identifier", "field_identifier"):
                continue
            name = _txt(name_node)
            owner = cls or qual    # an out-of-line `N::f` (N a namespace) is treated like a member of "class" N
            if owner is not None:
                self.classes.setdefault(owner, set()).add(name)
            self.user_funcs.add(name)
            if n.type != "function_definition":
                continue
            lo, hi, _ = self._arity(fdecl)
            is_tmpl = n.parent is not None and n.parent.type == "template_declaration"
            self.funcs.append(_Func(file, n, owner, ns, name, lo, hi, is_tmpl))

    # -- pass 2: forbidden constructs ----------------------------------------------------------------------------
    def _scan(self, file: str, root) -> None:
        for n in walk(root):
            t = n.type
            if t == "virtual" and n.parent is not None:
                if n.parent.type == "base_class_clause":
                    self.add(file, n, "virtual-inheritance", "error",
                             "virtual inheritance is not supported in AscendC device code")
                else:
                    self.add(file, n, "virtual", "error", "virtual functions are not supported in AscendC device code")
            elif t == "virtual_specifier" and n.parent is not None and n.parent.type == "function_declarator":
                self.add(file, n, "virtual", "error",
                         f"'{_txt(n)}' declares a virtual function; virtual functions are not supported in AscendC "
                         "device code")
            elif t == "new_expression":
                placement = n.child_by_field_name("placement")
                if placement is not None and "nothrow" not in _txt(placement):
                    self.add(file, n, "dynamic-allocation", "warning",
                             "placement new in device code: constructs in place, but the device compiler's <new> "
                             "support is not documented")
                else:
                    self.add(file, n, "dynamic-allocation", "error",
                             "dynamic memory allocation ('new') is not supported in AscendC device code; "
                             "use TPipe/TQue/TBuf buffers")
            elif t == "gnu_asm_expression":
                self.add(file, n, "inline-asm", "error",
                         "inline assembly is not allowed in candidate code (it reaches the system past every check)")
            elif t == "delete_expression":
                self.add(file, n, "dynamic-allocation", "error",
                         "dynamic memory release ('delete') is not supported in AscendC device code")
            elif t in ("throw_statement", "throw_expression", "try_statement"):
                self.add(file, n, "exceptions", "warning",
                         f"'{_txt(n.children[0])}': C++ exceptions are not available in device code")
            elif t == "call_expression":
                self._call(file, n)
            elif t == "qualified_identifier" and (n.parent is None or n.parent.type != "qualified_identifier"):
                self._qualified(file, n)
            elif t == "template_type" and self.using_std and (n.parent is None or n.parent.type != "qualified_identifier"):
                nm = n.child_by_field_name("name")
                name = _txt(nm) if nm is not None else ""
                if name in STL_ERROR_TYPES and name not in self.classes:
                    self.add(file, n, "stl", "warning",
                             f"'{name}' (with 'using namespace std') looks like STL container std::{name}; the STL is "
                             "not supported in AscendC device code")

    def _in_constant_context(self, node) -> bool:
        n = node.parent
        while n is not None:
            if n.type in ("template_argument_list", "static_assert_declaration"):
                return True
            if n.type in ("function_definition", "declaration", "field_declaration"):
                if any(c.type == "type_qualifier" and _txt(c) in ("constexpr", "consteval") for c in n.children):
                    return True
                if n.type == "function_definition":
                    return False
            n = n.parent
        return False

    def _unalias(self, parts: list[str]) -> list[str]:
        return ["std", *parts[1:]] if parts and parts[0] in self.std_aliases else parts

    def _qualified(self, file: str, n) -> None:
        parts = self._unalias([p.strip() for p in re.sub(r"<.*", "", re.sub(r"\s+", "", _txt(n))).split("::")])
        if len(parts) < 2 or parts[0] not in ("std", ""):
            return
        if parts[0] == "" and parts[1] == "std":
            parts = parts[1:]
        if parts[0] != "std":
            return
        name = parts[1]
        is_call = n.parent is not None and n.parent.type == "call_expression" and n.parent.child_by_field_name("function") == n
        if name in STL_ERROR_TYPES and not is_call:
            what = "file/string streams" if "stream" in name else f"std::{name}"
            self.add(file, n, "stl", "error",
                     f"{what} is not supported in AscendC device code (no STL; the guide names std::tuple as well)"
                     if name == "tuple" else f"{what} is not supported in AscendC device code (the STL is unavailable)")
        elif name in STL_WARN_TYPES and not is_call:
            self.add(file, n, "stl", "warning",
                     f"std::{name} in device code: the STL is not supported on the device; use a plain struct/array")
        elif name in IO_STREAMS:
            self.add(file, n, "host-io", "error",
                     f"std::{name}: iostreams are host-only; use AscendC::printf/PRINTF or DumpTensor in kernel code")

    def _call(self, file: str, n) -> None:
        fn = n.child_by_field_name("function")
        if fn is None:
            return
        if fn.type == "identifier":
            name = _txt(fn)
            if name == "typeid":
                self.add(file, fn, "typeid", "error", "runtime 'typeid' is not supported in AscendC device code")
            if name in self.user_funcs:
                return
            if name in ALLOC_FUNCS:
                self.add(file, fn, "dynamic-allocation", "error",
                         f"'{name}': dynamic memory (malloc/free) is not supported in AscendC device code; "
                         "use TPipe/TQue/TBuf buffers")
            elif name in FILE_IO_FUNCS:
                self.add(file, fn, "host-io", "error",
                         f"'{name}': file/console IO is host-only (no file-system IO on the device); "
                         "use AscendC::printf/PRINTF or DumpTensor")
            # unqualified scalar math (sqrt, expf, ...) is not flagged: the device compiler provides scalar
            # versions (the ops-nn RmsNorm reference kernel calls sqrt() on a float in __aicore__ code)
            return
        if fn.type != "qualified_identifier":
            return
        flat = re.sub(r"\s+", "", _txt(fn))
        flat = re.sub(r"<.*", "", flat)
        parts = self._unalias(flat.split("::"))
        if parts[0] == "" and len(parts) == 2:     # ::name
            name = parts[1]
            if name in ALLOC_FUNCS:
                self.add(file, fn, "dynamic-allocation", "error",
                         f"'::{name}': dynamic memory (malloc/free) is not supported in AscendC device code")
            elif name in FILE_IO_FUNCS:
                self.add(file, fn, "host-io", "error", f"'::{name}': file/console IO is host-only")
            elif name in ("printf",):
                self.add(file, fn, "host-io", "warning",
                         "'::printf' names the C library printf, not AscendC::printf; use printf/PRINTF from AscendC")
            return
        if parts[0] != "std" or len(parts) != 2:
            return
        name = parts[1]
        if name in STD_ALLOC_FUNCS:
            self.add(file, fn, "dynamic-allocation", "error",
                     f"'std::{name}': dynamic memory is not supported in AscendC device code")
        elif name in FILE_IO_FUNCS or name == "printf":
            self.add(file, fn, "host-io", "error" if name != "printf" else "warning",
                     f"'std::{name}' is host-only; use AscendC::printf/PRINTF or DumpTensor in kernel code")
        elif name in STD_ALGORITHMS:
            self.add(file, fn, "host-call", "error",
                     f"'std::{name}': standard-library algorithm/tuple functions are not supported in AscendC device "
                     "code (they are not __aicore__ functions)")
        elif (name in STD_MATH or name in STD_UTIL_WARN) and not self._in_constant_context(n):
            self.add(file, fn, "host-call", "warning",
                     f"'std::{name}' is a host standard-library function; device code needs an __aicore__ function "
                     "(use AscendC APIs or a local inline helper)")

    # -- recursion (call graph over the functions defined in the kernel sources) ----------------------------------
    def _callees(self, f: _Func) -> list[tuple[object, list[int], bool]]:
        """(call node, candidate function indices, certain) for every call in f's body resolvable to a definition."""
        body = f.node.child_by_field_name("body")
        out = []
        if body is None:
            return out
        for n in walk(body):
            if n.type != "call_expression":
                continue
            fn = n.child_by_field_name("function")
            args = n.child_by_field_name("arguments")
            arg_nodes = [a for a in (args.named_children if args is not None else []) if a.type != "comment"]
            if any(a.type == "parameter_pack_expansion" for a in arg_nodes):
                continue    # `f(rest...)`: a variadic template peeling its pack (compile-time recursion)
            nargs = len(arg_nodes)
            cls, ns, name, free_ok = None, None, None, True
            if fn is None:
                continue
            if fn.type == "identifier":
                name = _txt(fn)
                if f.cls is not None and name in self.classes.get(f.cls, ()):
                    cls, free_ok = f.cls, False
            elif fn.type == "template_function":
                continue    # explicit template arguments: usually compile-time recursion towards a specialisation
            elif fn.type == "field_expression":
                arg = fn.child_by_field_name("argument")
                fld = fn.child_by_field_name("field")
                if arg is None or fld is None or _txt(arg) not in ("this", "(*this)") or fld.type != "field_identifier":
                    continue
                name, cls, free_ok = _txt(fld), f.cls, False
            elif fn.type == "qualified_identifier":
                inner, scope, targs = fn, None, False
                while inner is not None and inner.type == "qualified_identifier":
                    scope = inner.child_by_field_name("scope")
                    targs = targs or (scope is not None and scope.type == "template_type")
                    inner = inner.child_by_field_name("name")
                if inner is None or inner.type != "identifier" or scope is None or targs:
                    continue    # `P<N - 1>::Run()`: another instantiation of a class template (compile-time recursion)
                name, q = _txt(inner), self._base_name(scope)
                if q in self.classes and any(g.cls == q for g in self.funcs):
                    cls, free_ok = q, False
                else:
                    ns = q
            else:
                continue
            if name is None:
                continue
            cands = [i for i, g in enumerate(self.funcs) if g.name == name and g.min_args <= nargs <= g.max_args and (
                (cls is not None and g.cls == cls) or
                (cls is None and free_ok and g.cls is None and (ns is None or g.ns == ns)) or
                (cls is None and ns is not None and g.cls == ns))]
            if not cands:
                continue
            same_arity = [i for i, g in enumerate(self.funcs) if g.name == name and g.cls == self.funcs[cands[0]].cls
                          and g.min_args <= nargs <= g.max_args]
            certain = len(same_arity) == 1 and not any(self.funcs[i].tmpl for i in cands)
            if cls is None and ns is None and name in _api_names():
                certain = False      # an AscendC overload with this name may be the one called
            out.append((fn, cands, certain))
        return out

    def _recursion(self) -> None:
        edges: dict[int, list[tuple[int, object, bool]]] = {i: [] for i in range(len(self.funcs))}
        for i, f in enumerate(self.funcs):
            for node, cands, certain in self._callees(f):
                for j in cands:
                    edges[i].append((j, node, certain and len(cands) == 1))
        for comp in _sccs(len(self.funcs), {i: [j for j, _, _ in e] for i, e in edges.items()}):
            cs = set(comp)
            if len(comp) == 1 and not any(j == comp[0] for j, _, _ in edges[comp[0]]):
                continue
            # report one call edge inside the cycle; certain only when every edge inside the cycle is certain
            inner = [(i, j, node, c) for i in comp for j, node, c in edges[i] if j in cs]
            certain = all(c for _, _, _, c in inner)
            i, j, node, _ = min(inner, key=lambda e: (self.funcs[e[0]].file, e[2].start_point))
            cycle = self._cycle_path(i, j, cs, edges)
            path = " -> ".join(self.funcs[k].label for k in cycle)
            kind = "recursive call" if len(cycle) <= 2 else "mutually recursive call"
            f = self.funcs[i]
            msg = (f"{kind} to '{self.funcs[j].label}' ({path}): runtime recursion is not supported in AscendC "
                   "device code")
            if not certain:
                msg += " (overload resolution not checked: the call may reach a different overload)"
            self.add(f.file, node, "recursion", "error" if certain else "warning", msg)

    def _cycle_path(self, i: int, j: int, cs: set[int], edges) -> list[int]:
        """i -> j -> ... -> i inside the component (BFS from j back to i)."""
        prev = {j: None}
        queue = [j]
        while queue:
            k = queue.pop(0)
            if k == i:
                break
            for m, _, _ in edges[k]:
                if m in cs and m not in prev:
                    prev[m] = k
                    queue.append(m)
        path, k = [], i
        while k is not None:     # i, prev(i), ..., j (a self-call: just i)
            path.append(k)
            k = prev.get(k)
        return [i] + path[::-1]


def _sccs(n: int, adj: dict[int, list[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in range(n):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, pi = work.pop()
            if pi == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            succ = adj.get(v, [])
            if pi < len(succ):
                work.append((v, pi + 1))
                w = succ[pi]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    return out


# ------------------------------------------------------------------------------------ regex fallback scan --
_STRIP_RX = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL)


def _strip(text: str) -> str:
    """Blank comments and string/char literals, keeping newlines and columns."""
    return _STRIP_RX.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


_REGEX_RULES: list[tuple[str, str, re.Pattern[str], str]] = [
    ("virtual-inheritance", "error", re.compile(r"[:,]\s*(?:(?:public|private|protected)\s+)?(virtual)\b(?=[^;{()]*\{)"),
     "virtual inheritance is not supported in AscendC device code"),
    ("virtual", "error", re.compile(r"\b(virtual)\b"), "virtual functions are not supported in AscendC device code"),
    ("virtual", "error", re.compile(r"\)\s*(?:const\s*)?(override|final)\b"),
     "'override'/'final' declares a virtual function; virtual functions are not supported in AscendC device code"),
    ("dynamic-allocation", "error", re.compile(r"(?<![\w.>:])(new)\s+(?!\()[A-Za-z_:]"),
     "dynamic memory allocation ('new') is not supported in AscendC device code; use TPipe/TQue/TBuf buffers"),
    ("dynamic-allocation", "error", re.compile(r"(?<![\w.>])(delete)\s*(?:\[\s*\])?\s*[A-Za-z_(*]"),
     "dynamic memory release ('delete') is not supported in AscendC device code"),
    ("dynamic-allocation", "error", re.compile(r"(?<![\w.>])(?:std\s*::\s*|::\s*)?((?:malloc|calloc|realloc|free|aligned_alloc))\s*\("),
     "dynamic memory (malloc/free) is not supported in AscendC device code; use TPipe/TQue/TBuf buffers"),
    ("stl", "error", re.compile(r"\bstd\s*::\s*(" + "|".join(sorted(STL_ERROR_TYPES)) + r")\b(?!\s*\()"),
     "STL types are not supported in AscendC device code"),
    ("host-io", "error", re.compile(r"\bstd\s*::\s*(" + "|".join(sorted(IO_STREAMS)) + r")\b"),
     "iostreams are host-only; use AscendC::printf/PRINTF or DumpTensor in kernel code"),
    ("typeid", "error", re.compile(r"\b(typeid)\s*\("), "runtime 'typeid' is not supported in AscendC device code"),
    ("inline-asm", "error", re.compile(r"\b(asm|__asm__|__asm)\b\s*(?:volatile|__volatile__|goto|inline|\s)*\("),
     "inline assembly is not allowed in candidate code (it reaches the system past every check)"),
    ("host-call", "warning", re.compile(r"\bstd\s*::\s*(" + "|".join(sorted(STD_MATH | STD_UTIL_WARN)) + r")\s*\("),
     "host standard-library function in device code"),
]


def _regex_lint(file: str, text: str) -> list[Finding]:
    clean = _strip(text)
    # drop CPU-only preprocessor regions (simple, non-nested #ifdef __CCE_KT_TEST__ ... #endif blocks)
    clean = re.sub(r"#\s*if(?:def\s+|\s+defined\s*\(?\s*)(?:__CCE_KT_TEST__|ASCENDC_CPU_DEBUG)\b.*?(?=#\s*(?:else|endif))",
                   lambda m: re.sub(r"[^\n]", " ", m.group(0)), clean, flags=re.DOTALL)
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", clean)]
    out = []
    seen = set()
    for rule, sev, rx, msg in _REGEX_RULES:
        for m in rx.finditer(clean):
            pos = m.start(1)
            if pos in seen:
                continue
            seen.add(pos)
            ln = bisect.bisect_right(line_starts, pos) - 1
            out.append(Finding(file, ln + 1, pos - line_starts[ln] + 1, rule, sev, msg))
    return out
