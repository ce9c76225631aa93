"""In-class explicit specialisations of member class templates (clang takes them, g++ does not) rewritten into
partial specialisations that g++ compiles and that select the same definitions; checked by compiling with g++."""
import shutil
import subprocess

import pytest

from kernelgen.bench.backends import member_specializations as ms

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

SOURCE = r"""
#include <type_traits>
template <class T> struct Outer { };
template <> struct Outer<int> { static constexpr int v = 1; };          // namespace scope: valid, left alone
template <class P, class Q>
class Kernel {
public:
    template <class T>
    struct LayoutHelper {
        using type = typename T::LayoutIn;
    };
    template <>
    struct LayoutHelper<void> {
        using type = void;
    };
    template <class A, class B> struct Pick { static constexpr int v = 0; };
    template <> struct Pick<int, Outer<char>> { static constexpr int v = 2; };
    template <> struct Pick<float, int> { static constexpr int v = 3; };
    // template <> struct Pick<char, char> { };  (a comment is not code)
    using LP = typename LayoutHelper<P>::type;
    static constexpr int pick = Pick<Q, int>::v;
    struct Nested {
        template <class U> struct Deep { static constexpr int v = 4; };
        template <> struct Deep<char> { static constexpr int v = 5; };
    };
};
struct WithLayout { using LayoutIn = long; };
static_assert(std::is_void_v<Kernel<void, int>::LP>);
static_assert(std::is_same_v<Kernel<WithLayout, int>::LP, long>);
static_assert(Kernel<void, float>::pick == 3 && Kernel<void, char>::pick == 0);
static_assert(Kernel<void, int>::Pick<int, Outer<char>>::v == 2);
static_assert(Kernel<void, int>::Nested::Deep<char>::v == 5 && Kernel<void, int>::Nested::Deep<int>::v == 4);
static_assert(Outer<int>::v == 1);
"""


def _gxx(tmp_path, text: str) -> subprocess.CompletedProcess:
    src = tmp_path / "k.cpp"
    src.write_text(text)
    return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", str(src)], capture_output=True, text=True)


def test_gxx_rejects_the_original(tmp_path):
    r = _gxx(tmp_path, SOURCE)
    assert r.returncode != 0 and "explicit specialization in non-namespace scope" in r.stderr


def test_rewritten_source_compiles_and_selects_the_same_definitions(tmp_path):
    out = ms.rewrite(SOURCE)
    r = _gxx(tmp_path, out)
    assert r.returncode == 0, r.stderr
    assert out.count("\n") == SOURCE.count("\n")                       # compiler messages keep their line numbers
    assert "template <> struct Outer<int>" in out                        # namespace scope untouched
    assert "// template <> struct Pick<char, char>" in out                # comments untouched


def test_left_alone_without_an_equivalent_rewrite():
    pack = "struct S {\n template <class... T> struct V {};\n template <> struct V<int> {};\n};\n"
    defaults = "struct S {\n template <class A, class B = int> struct D {};\n template <> struct D<char> {};\n};\n"
    assert ms.rewrite(pack) == pack and ms.rewrite(defaults) == defaults
