"""Device-code lint (kernel_lint): each rule fires on the construct and stays quiet on the same text in comments or
string literals, on AscendC's own debug APIs and on every reference answer; a sim build of a kernel with `virtual`
fails as a compile error carrying the lint's diagnostic."""
from __future__ import annotations

from pathlib import Path

import pytest
from kernelgen.bench.backends import kernel_lint
from kernelgen.bench.backends.kernel_lint import lint_kernel_sources
from kernelgen.bench.model import CompileErrorClass, Verdict

from .conftest import BUILTIN_TASKS, FIXTURE_TASKS, REPO, answer_files, load

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def lint(body: str, name: str = "k.cpp"):
    return lint_kernel_sources({name: HEAD + body})


def rules(res, severity: str = "error") -> list[tuple[str, int]]:
    """(rule, line in the snippet body) of the findings of one severity."""
    return [(f.rule, f.line - 2) for f in res.findings if f.severity == severity]


requires_ts = pytest.mark.skipif(kernel_lint.parser() is None, reason="tree-sitter-cpp not installed")


# -- virtual -------------------------------------------------------------------------------------------------------
def test_virtual_member_function_is_an_error_with_compiler_style_location():
    res = lint("class KernelA {\npublic:\n    __aicore__ virtual void Process() {}\n};\n")
    assert rules(res) == [("virtual", 3)]
    assert str(res.errors[0]).startswith("op_kernel/k.cpp:5:16: error: virtual functions are not supported")
    assert res.error_class == CompileErrorClass.SYNTAX


def test_pure_virtual_override_and_virtual_inheritance():
    res = lint("struct B { virtual void F() = 0; };\n"
               "struct D : B { void F() override {} };\n"
               "struct E : virtual public B { void F() final {} };\n")
    assert sorted(rules(res)) == [("virtual", 1), ("virtual", 2), ("virtual", 3), ("virtual-inheritance", 3)]


def test_virtual_in_comments_and_strings_and_final_class_are_clean():
    res = lint("// virtual void F(); new int; malloc(4); std::vector<int> v;\n"
               "/* class A : virtual B { virtual ~A(); }; delete p; */\n"
               'const char* s = "virtual new delete std::string std::cout";\n'
               "class K final { public: __aicore__ void F() {} };\n")
    assert res.findings == []


# -- dynamic allocation ----------------------------------------------------------------------------------------------
def test_new_delete_malloc_free_are_errors():
    res = lint("__aicore__ void F() {\n"
               "    float* a = new float[16];\n"
               "    delete[] a;\n"
               "    void* b = malloc(64);\n"
               "    free(b);\n"
               "    auto c = std::make_unique<int>(1);\n"
               "}\n")
    assert sorted(rules(res)) == [("dynamic-allocation", n) for n in (2, 3, 4, 5, 6)]
    assert res.error_class == CompileErrorClass.MEMORY_OBJECT


def test_placement_new_is_only_a_warning_and_user_defined_free_is_clean():
    res = lint("struct Pool { __aicore__ void free(int i) {} };\n"
               "__aicore__ void Free(int) {}\n"
               "__aicore__ void F(Pool& p, void* buf) {\n"
               "    new (buf) int(3);\n"
               "    p.free(1);\n"
               "    Free(2);\n"
               "}\n")
    assert rules(res) == [] and rules(res, "warning") == [("dynamic-allocation", 4)]


# -- STL, IO, host library calls --------------------------------------------------------------------------------------
def test_stl_containers_and_iostreams_are_errors_type_traits_are_not():
    res = lint("#include <vector>\n#include <iostream>\n#include <type_traits>\n"
               "template <typename T> __aicore__ void F() {\n"
               "    std::vector<int> v;\n"
               "    std::string s;\n"
               "    std::cout << 1;\n"
               "    std::tuple<int, float> t;\n"
               "    if constexpr (std::is_same_v<T, float>) {}\n"
               "    static_assert(std::is_same<T, T>::value, \"\");\n"
               "}\n")
    assert sorted(rules(res)) == [("host-io", 7), ("stl", 5), ("stl", 6), ("stl", 8)]


def test_ascendc_printf_dumptensor_assert_are_allowed_host_printf_variants_are_not():
    res = lint("__aicore__ void F(LocalTensor<float>& x, int n) {\n"
               '    printf("n=%d\\n", n);\n'
               '    PRINTF("n=%d\\n", n);\n'
               '    AscendC::printf("x");\n'
               "    DumpTensor(x, 1, 16);\n"
               "    assert(n > 0);\n"
               '    ASSERT(n > 0 && "positive");\n'
               '    fprintf(stderr, "x");\n'
               '    std::printf("x");\n'
               "}\n")
    assert rules(res) == [("host-io", 8)]
    assert rules(res, "warning") == [("host-io", 9)]


def test_std_math_and_min_are_warnings_algorithms_are_errors_scalar_sqrt_is_clean():
    res = lint("__aicore__ float F(float x, float* p) {\n"
               "    float a = std::sqrt(x) + std::exp(x);\n"
               "    float b = std::min(a, x);\n"
               "    std::sort(p, p + 4);\n"
               "    return a + b + sqrt(x);\n"     # scalar sqrt: used by the ops-nn RmsNorm reference kernel
               "}\n"
               "constexpr int kMax = std::max(1, 2);\n")
    assert rules(res) == [("host-call", 4)]
    assert sorted(rules(res, "warning")) == [("host-call", 2), ("host-call", 2), ("host-call", 3)]


def test_typeid_is_an_error_exceptions_warn():
    res = lint("__aicore__ void F(int x) {\n    auto& t = typeid(x);\n    if (x) throw 1;\n}\n")
    assert rules(res) == [("typeid", 2)]
    assert rules(res, "warning") == [("exceptions", 3)]


def test_cpu_debug_only_branches_are_skipped():
    res = lint("#ifdef __CCE_KT_TEST__\n#include <iostream>\nvoid Dbg() { std::cout << 1; }\n#else\n"
               "__aicore__ void Dev() { std::vector<int> v; }\n#endif\n"
               "#ifndef ASCENDC_CPU_DEBUG\n__aicore__ void Dev2() { int* p = new int; }\n"
               "#else\nvoid Dbg2() { int* p = new int; delete p; }\n#endif\n")
    assert sorted(rules(res)) == [("dynamic-allocation", 8), ("stl", 5)]


def test_using_namespace_std_container_warns_ascendc_std_tuple_is_clean():
    res = lint("using namespace std;\n__aicore__ void F() {\n    vector<int> v;\n"
               "    AscendC::Std::tuple<int, int> t = AscendC::Std::make_tuple(1, 2);\n    Std::tuple<int> u;\n}\n")
    assert rules(res) == [] and rules(res, "warning") == [("stl", 3)]


@pytest.mark.parametrize("body, expect", [
    ("struct E : virtual public B { virtual void F() {} };\n", [("virtual", 1), ("virtual-inheritance", 1)]),
    ("__aicore__ void F() {\n    float* a = new float[16];\n    delete[] a;\n    free(malloc(4));\n}\n",
     [("dynamic-allocation", 2), ("dynamic-allocation", 3), ("dynamic-allocation", 4), ("dynamic-allocation", 4)]),
    ("__aicore__ void F() { std::vector<int> v; std::cout << 1; auto& t = typeid(v); }\n",
     [("host-io", 1), ("stl", 1), ("typeid", 1)]),
    (('// virtual new int; malloc(4); std::vector<int>\nconst char* s = "virtual delete p; std::cout";\n'
      "__aicore__ void F(Obj& o, void* b) { o.free(1); new (b) int(2); }\n"), []),
    ("#ifdef __CCE_KT_TEST__\nvoid Dbg() { std::cout << 1; }\n#else\n__aicore__ void D() { std::string s; }\n#endif\n",
     [("stl", 4)]),
])
def test_regex_fallback_without_tree_sitter(monkeypatch, body, expect):
    monkeypatch.setattr(kernel_lint, "parser", lambda: None)
    res = lint(body)
    assert res.backend == "regex"
    assert sorted(rules(res)) == expect


def test_regex_fallback_keeps_reference_answers_clean(monkeypatch):
    monkeypatch.setattr(kernel_lint, "parser", lambda: None)
    sets = _kernel_sets(BUILTIN_TASKS, "*/*/*/answer/0/op_kernel")
    if FIXTURE_TASKS.is_dir():
        sets += _kernel_sets(FIXTURE_TASKS, "*/*/*/answer/0/op_kernel")
    _assert_clean(sets)


# -- recursion --------------------------------------------------------------------------------------------------------
@requires_ts
def test_direct_recursion_of_a_member_function():
    res = lint("class KernelA {\npublic:\n"
               "    __aicore__ int Depth(int n) { return n == 0 ? 0 : 1 + Depth(n - 1); }\n"
               "    __aicore__ int Other(int n) { return n; }\n};\n")
    assert rules(res) == [("recursion", 3)]
    assert "recursive call to 'KernelA::Depth' (KernelA::Depth -> KernelA::Depth)" in res.errors[0].message


@requires_ts
def test_mutual_recursion_across_files_and_out_of_class_definitions():
    srcs = {
        "k.cpp": HEAD + '#include "k.h"\n'
                 "__aicore__ void KernelB::Ping(int n) { if (n) this->Pong(n - 1); }\n",
        "k.h": "class KernelB {\npublic:\n    __aicore__ void Ping(int n);\n"
               "    __aicore__ void Pong(int n) { if (n) Ping(n - 1); }\n};\n",
    }
    res = lint_kernel_sources(srcs)
    assert [f.rule for f in res.errors] == ["recursion"]
    msg = res.errors[0].message
    assert msg.startswith("mutually recursive call") and ("KernelB::Ping -> KernelB::Pong -> KernelB::Ping" in msg
                                                          or "KernelB::Pong -> KernelB::Ping -> KernelB::Pong" in msg)
    free = lint("__aicore__ int IsEven(int n);\n__aicore__ int IsOdd(int n) { return n == 0 ? 0 : IsEven(n - 1); }\n"
                "__aicore__ int IsEven(int n) { return n == 0 ? 1 : IsOdd(n - 1); }\n")
    assert [f.rule for f in free.errors] == ["recursion"]


@requires_ts
def test_non_recursive_patterns_stay_clean():
    res = lint(
        # overload by arity: Compute(x) calls Compute(x, 0), which calls nothing back
        "class K {\npublic:\n"
        "    __aicore__ void Compute(int x) { Compute(x, 0); }\n"
        "    __aicore__ void Compute(int x, int y) { Process(); }\n"
        "    __aicore__ void Process() { helper.Process(); }\n"          # another object's Process: not this one
        "    Helper helper;\n};\n"
        # compile-time recursion: explicit template arguments / a shrinking parameter pack
        "template <int N> __aicore__ int Pow2() { return 2 * Pow2<N - 1>(); }\n"
        "template <> __aicore__ int Pow2<0>() { return 1; }\n"
        "template <typename T> __aicore__ int Count(T) { return 1; }\n"
        "template <typename T, typename... Ts> __aicore__ int Count(T, Ts... r) { return 1 + Count(r...); }\n"
        # a free function sharing an AscendC API name calls the API, not itself
        "template <typename T> __aicore__ void Exp(LocalTensor<T>& d, LocalTensor<T>& s, int n) { AscendC::Exp(d, s, n); }\n"
        "// Depth(n - 1) in a comment: __aicore__ int Depth(int n) { return Depth(n); }\n")
    assert res.findings == [], res.render()


@requires_ts
def test_same_arity_overloads_and_deduced_template_self_calls_only_warn():
    res = lint("__aicore__ void Cvt(half x) { Cvt(static_cast<float>(x)); }\n"
               "__aicore__ void Cvt(float x) { }\n"
               "template <typename T> __aicore__ void Up(T x) {\n"
               "    if constexpr (!IsSame<T, float>::value) { Up(static_cast<float>(x)); }\n}\n")
    assert rules(res) == [] and rules(res, "warning") == [("recursion", 1), ("recursion", 4)]
    # another instantiation of a class template through its scope: compile-time recursion, no finding
    ok = lint("template <int N> struct P {\n"
              "    __aicore__ static int V() { if constexpr (N > 0) { return 2 * P<N - 1>::V(); } return 1; }\n};\n")
    assert ok.findings == []


# -- reference answers -------------------------------------------------------------------------------------------------
def _kernel_sets(root: Path, pattern: str) -> list[tuple[str, dict[str, str]]]:
    out = []
    for d in sorted(root.glob(pattern)):
        out.append((str(d), {p.relative_to(d).as_posix(): p.read_text(errors="replace") for p in sorted(d.rglob("*"))
                             if p.is_file()}))
    return out


def _assert_clean(sets):
    assert sets
    for where, srcs in sets:
        res = lint_kernel_sources(srcs)
        assert not res.errors, f"{where}\n{res.render('error')}"
        # the only warnings in reference answers are none today; a new one must be looked at
        assert not res.warnings, f"{where}\n{res.render('warning')}"


def test_builtin_and_mixed_test_task_answers_are_lint_clean():
    data = REPO / "tests" / "sim" / "data"     # the simulator's own mixed (AIC + AIV) test tasks
    _assert_clean(_kernel_sets(BUILTIN_TASKS, "*/*/*/answer/0/op_kernel")
                  + _kernel_sets(data, "level3/*/*/answer/0/op_kernel")
                  + _kernel_sets(data, "level3/*/*/question/op_kernel"))


def test_npukernelbench_sample_answers_are_lint_clean(fixture_root):
    _assert_clean(_kernel_sets(fixture_root, "*/*/*/answer/0/op_kernel"))


# -- end to end ---------------------------------------------------------------------------------------------------------
def test_sim_build_rejects_virtual_kernel_as_compile_error(runner):
    task = load(BUILTIN_TASKS / "level1" / "Math" / "Mul")
    files = answer_files(task)
    rel = "op_kernel/mul.cpp"
    src = files[rel]
    anchor = "namespace {\n"
    assert anchor in src
    files[rel] = src.replace(anchor, anchor + "struct LintProbe { __aicore__ virtual int Get() { return 1; } };\n", 1)
    line = files[rel][:files[rel].index("virtual")].count("\n") + 1
    res, rt = runner.build(task, files, tag="lint-virtual")
    assert not res.ok and rt is None
    assert res.verdict == Verdict.COMPILE_ERROR and res.error_class == CompileErrorClass.SYNTAX
    assert f"op_kernel/mul.cpp:{line}:" in res.log and "error: virtual functions are not supported" in res.log


# -- evasion: macros, namespace aliases, inline assembly, op_host (issue 15, class 8) ------------------------------
EVASIONS = {
    "new": ("#define MAKE(T) new T\n__aicore__ inline int* Get() { return MAKE(int); }\n", "dynamic-allocation", 2),
    "virtual": ("#define V virtual\nstruct A { __aicore__ V int Get() { return 1; } };\n", "virtual", 2),
    "malloc": ("#define GRAB(n) malloc(n)\n__aicore__ inline void* Get() { return GRAB(16); }\n", "dynamic-allocation", 2),
    "vector": ("#define VEC std::vector\n__aicore__ inline void Get() { VEC<int> v; }\n", "stl", 2),
    "recursion": ("#define AGAIN(x) Fact(x)\n__aicore__ inline int Fact(int n) { return n ? n * AGAIN(n - 1) : 1; }\n",
                  "recursion", 2),
}


@requires_ts
@pytest.mark.parametrize("name", sorted(EVASIONS))
def test_macro_hidden_constructs_are_found_at_their_use(name):
    body, rule, line = EVASIONS[name]
    assert not [f for f in lint(body).errors if f.rule == rule]         # the raw text hides it
    res = lint_kernel_sources({"k.cpp": HEAD + body}, expand_macros=True)
    hits = [f for f in res.errors if f.rule == rule]
    assert hits and hits[0].line - 2 == line and "after macro expansion" in hits[0].message, res.render()


@requires_ts
def test_macros_from_a_candidate_header_are_expanded_and_toolkit_includes_are_not_read():
    header = "#pragma once\n#define HEAP(T) new T[4]\n"
    kernel = ('#include "kernel_operator.h"\n#include "lib/util.h"\n#include "/etc/hostname"\n'
              "__aicore__ inline float* Get() { return HEAP(float); }\n")
    res = lint_kernel_sources({"k.cpp": kernel, "lib/util.h": header}, expand_macros=True)
    assert [(f.file, f.line, f.rule) for f in res.errors] == [("op_kernel/k.cpp", 4, "dynamic-allocation")], res.render()


@requires_ts
def test_an_include_the_blanking_misses_fails_closed():
    # `#/**/include` is an include the line scan does not see: the sandboxed preprocessor cannot open it, and the
    # lint reports an error instead of linting less
    res = lint_kernel_sources({"k.cpp": HEAD + '#/**/include "/etc/passwd"\n__aicore__ void f() {}\n'}, expand_macros=True)
    assert [f.rule for f in res.errors] == ["preprocess"], res.render()


@requires_ts
def test_std_namespace_alias_and_inline_assembly():
    res = lint("namespace s = std;\n__aicore__ inline void F() { s::vector<int> v; }\n"
               '__aicore__ inline void G() { __asm__ volatile("syscall"); }\n')
    assert rules(res) == [("stl", 2), ("inline-asm", 3)], res.render()


def test_op_host_may_use_ordinary_cpp_but_no_inline_assembly():
    from kernelgen.bench.backends.kernel_lint import lint_host_sources
    ok = lint_host_sources({"t.cpp": "#include <vector>\nstd::vector<int>* f() { return new std::vector<int>(); }\n"
                                     "struct B { virtual ~B() = default; };\n"}, expand_macros=True)
    assert not ok.findings, ok.render()
    bad = lint_host_sources({"t.cpp": '#define RAW(n) asm volatile("syscall" :: "a"(n))\n'
                                      "static int x = [] { RAW(57); return 0; }();\n"}, expand_macros=True)
    assert [(f.file, f.line, f.rule) for f in bad.errors] == [("op_host/t.cpp", 2, "inline-asm")], bad.render()


def test_simulator_internal_names_are_errors_on_kernel_and_host_code():
    from kernelgen.bench.backends.kernel_lint import lint_host_sources
    res = lint('__aicore__ void f(GM_ADDR x) { ascsim::gm_backed(x, 4, true, "f"); }\n'
               '// ascsim in a comment and "ascsim" in a string are fine; so is ascsimple\nint ascsimple = 0;\n')
    assert rules(res) == [("simulator-internal", 1)], res.render()
    host = lint_host_sources({"l2.cpp": "void f(const aclTensor* out) {\n"
                                        "  float* o = (float*)ascsim::opapi::Access::data(out); o[0] = 1; }\n"
                                        "#ifdef ASCSIM_HOST_H_\n#endif\n"}, expand_macros=True)
    assert [(f.line, f.rule) for f in host.errors] == [(2, "simulator-internal"), (3, "simulator-internal")], host.render()
    assert host.error_class == CompileErrorClass.SCOPE


def test_reference_answers_stay_clean_after_macro_expansion(fixture_root):
    from kernelgen.bench.backends.kernel_lint import lint_host_sources
    for root in (BUILTIN_TASKS, fixture_root):
        for where, srcs in _kernel_sets(root, "*/*/*/answer/0/op_kernel"):
            res = lint_kernel_sources(srcs, expand_macros=True)
            assert not res.findings, f"{where}\n{res.render()}"
        for where, srcs in _kernel_sets(root, "*/*/*/answer/0/op_host"):
            res = lint_host_sources(srcs, expand_macros=True)
            assert not res.findings, f"{where}\n{res.render()}"


def test_sim_build_rejects_macro_hidden_new_and_host_assembly(runner):
    task = load(BUILTIN_TASKS / "level1" / "Math" / "Mul")
    files = answer_files(task)
    src = files["op_kernel/mul.cpp"]
    anchor = "namespace {\n"
    files["op_kernel/mul.cpp"] = src.replace(anchor, anchor + "#define ALLOC(T) new T\n"
                                             "__aicore__ inline int* LintProbe() { return ALLOC(int); }\n", 1)
    res, rt = runner.build(task, files, tag="lint-macro-new")
    assert not res.ok and res.verdict == Verdict.COMPILE_ERROR, res.log[-1500:]
    assert "('new') is not supported" in res.log and "after macro expansion" in res.log, res.log[-1500:]

    files = answer_files(task)
    host = next(k for k in files if k.startswith("op_host/") and k.endswith(".cpp"))
    files[host] = '#define RAW(n) asm volatile("syscall" :: "a"(n))\nstatic int probe = [] { RAW(39); return 0; }();\n' + files[host]
    res, rt = runner.build(task, files, tag="lint-host-asm")
    assert not res.ok and res.verdict == Verdict.COMPILE_ERROR and "inline assembly" in res.log, res.log[-1500:]
