"""Toolkit compatibility of the simulator's headers and host side, checked by C++ drivers against references written
from the documentation: half/bfloat16_t as literal types (constant initialisation gives the IEEE round-to-nearest-even
bits of the run-time path, under g++ and clang++), the toolkit's include paths, aclnn argument kinds, host platform
queries and contexts, and what is not simulated failing by name."""
import shutil

import pytest

from .conftest import REPO, run_cpp_driver

CPP = REPO / "tests" / "sim" / "cpp"


@pytest.mark.parametrize("cxx", ["g++", "clang++"])
def test_half_and_bfloat16_are_literal_types(cxx):
    if shutil.which(cxx) is None:
        pytest.skip(f"{cxx} not installed")
    run_cpp_driver(CPP / "numeric_literal_test.cpp", cxx=cxx)


def test_toolkit_include_paths_resolve_to_the_simulator():
    """lib/<family>/..., lib/<api>/... aliases, basic-API and intrinsic headers: Asin and Sigmoid through them."""
    run_cpp_driver(CPP / "toolkit_headers_test.cpp")


def _syntax(tmp_path, code: str):
    import subprocess
    from kernelgen.bench.backends.sim import SIM_INCLUDE
    src = tmp_path / "tu.cpp"
    src.write_text(code)
    return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", f"-I{SIM_INCLUDE}", str(src)], capture_output=True,
                          text=True, timeout=300)


def test_an_api_that_is_not_simulated_fails_by_name_only_when_called(tmp_path):
    head = '#include "lib/transpose/kernel_operator_confusion_transpose_intf.h"\nusing namespace AscendC;\n'
    call = ("void f(LocalTensor<float>& y, LocalTensor<float>& x, LocalTensor<uint8_t>& t) "
            "{ ConfusionTranspose<float>(y, x, t, 1, 64u); }\n")
    assert _syntax(tmp_path, head).returncode == 0
    r = _syntax(tmp_path, head + call)
    assert r.returncode != 0
    assert ("ascsim: AscendC::ConfusionTranspose (lib/transpose/kernel_operator_confusion_transpose_intf.h) is not "
            "simulated") in r.stderr


def test_the_one_header_per_api_layout_resolves(tmp_path):
    """The newer layout (lib/ = the adv_api tree): per-API headers reach what the simulator implements, the tiling
    headers the host helpers, lib/matrix/matmul/ the matmul API; an API it lacks fails by name when called, a family
    it lacks (HCCL) stops the build at the include, naming it."""
    heads = ["lib/reduce/reduce.h", "lib/math/cumsum.h", "lib/pad/broadcast.h", "lib/activation/softmax.h",
             "lib/normalization/layernorm.h", "lib/matrix/matmul/matmul.h", "lib/matmul/matmul_intf.h", "lib/kernel_api.h",
             "lib/utils/init_global_memory.h"]
    code = "".join(f'#include "{h}"\n' for h in heads) + """using namespace AscendC;
void f(LocalTensor<float>& y, LocalTensor<float>& x, LocalTensor<float>& r, LocalTensor<uint8_t>& t) {
    const uint32_t s[2] = {2, 8};
    ReduceMean<float, Pattern::Reduce::AR>(y, x, t, s, true);
    static constexpr CumSumConfig c = {true, false, false};
    CumSum<float, c>(y, r, x, t, CumSumInfo{2, 8});
    const uint32_t d[2] = {2, 8}, b[2] = {2, 1};
    Broadcast<float, 2, 1>(y, x, d, b, t);
}
"""
    r = _syntax(tmp_path, code)
    assert r.returncode == 0, r.stderr[-2000:]
    host = ('#include "lib/math/cumsum_tiling.h"\n#include "lib/reduce/reduce_tiling.h"\n#include "lib/tiling_api.h"\n'
            "void g() { uint32_t a, b; AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({2, 8}), ge::DT_FLOAT, "
            "AscendC::ReducePattern::AR, true, false, a, b); AscendC::GetCumSumMaxMinTmpSize(ge::Shape({2, 8}), 4, true, "
            "false, a, b); }\n")
    r = _syntax(tmp_path, host)
    assert r.returncode == 0, r.stderr[-2000:]
    r = _syntax(tmp_path, '#include "lib/math/is_inf.h"\nusing namespace AscendC;\n'
                          "void f(LocalTensor<uint8_t>& y, LocalTensor<float>& x) { IsInf(y, x, 64u); }\n")
    assert "ascsim: AscendC::IsInf (lib/math/is_inf.h) is not simulated (its docs list no Atlas A2 support)" in r.stderr
    r = _syntax(tmp_path, '#include "lib/hccl/hccl.h"\n')
    assert r.returncode != 0 and "HCCL collective communication from kernels is not simulated" in r.stderr


def test_internal_toolkit_functions_compile_until_instantiated(tmp_path):
    """Kernels name internal toolkit functions (DuplicateImpl, DataCopyUB2GMImpl) on code paths for other chips: the
    device compiler accepts such a template while it is not instantiated; an instantiation fails by name."""
    head = ('#include "kernel_operator.h"\nusing namespace AscendC;\n'
            "template <class T> struct K { void Zero(GlobalTensor<int16_t> g, LocalTensor<int16_t> b) {\n"
            "  DuplicateImpl<int16_t>((__ubuf__ int16_t*)b.GetPhyAddr(), 0, 16u);\n"
            "  DataCopyUB2GMImpl((__gm__ int16_t*)g.GetPhyAddr(), (__ubuf__ int16_t*)b.GetPhyAddr(), {1, 1, 0, 0}); } };\n")
    r = _syntax(tmp_path, head)
    assert r.returncode == 0, r.stderr[-2000:]
    r = _syntax(tmp_path, head + "void f(GlobalTensor<int16_t> g, LocalTensor<int16_t> b) { K<float>().Zero(g, b); }\n")
    assert r.returncode != 0
    assert "ascsim: AscendC::DuplicateImpl (an internal toolkit function, not in the AscendC docs) is not simulated" in r.stderr
    assert "ascsim: AscendC::DataCopyUB2GMImpl" in r.stderr


def test_scalar_min_max_overload_with_the_kernels_own_at_its_global_scope(tmp_path):
    """The kernel's global scope is a namespace in the sim: the device compiler's min/max(int64_t, int64_t) must
    still overload with what the kernel brings to that scope (a catlass `using namespace tla;` whose min/max are
    templates on compile-time constants; `using namespace std;`), and a kernel's own template stays callable."""
    from kernelgen.bench.backends.sim_cube import core_prologue
    kernel = """
namespace tla { template <auto t> struct C {};
template <auto t, auto u> constexpr auto min(C<t>, C<u>) { return C<(t < u ? t : u)>{}; }
template <class T0, class... Ts> auto max(T0 const& a, Ts const&... ts) { return a; } }
using namespace tla;
struct Shape { uint32_t k() const { return 300; } };
constexpr uint32_t K = 256;
inline uint32_t tile(const Shape& s) { return min(s.k(), K); }          // the intrinsic: int64_t
static_assert(std::is_same_v<decltype(min(tla::C<1>{}, tla::C<2>{})), tla::C<1>>, "tla's own");
static_assert(std::is_same_v<decltype(min(uint32_t(1), K)), int64_t>, "int64_t min");
static_assert(std::is_same_v<decltype(max(int32_t(1))), int32_t>, "tla::max, an exact match");
namespace with_std { using namespace std;
inline float smaller(float a, float b) { return min(a, b); }
static_assert(std::is_same_v<decltype(min(1.5f, 2.5f)), const float&>, "std::min<float> wins"); }
template <class T> T clamp_hi(T a, T b) { return a < b ? a : b; }
inline int own(int a) { return clamp_hi(a, 3); }
"""
    code = ('#include "kernel_operator.h"\n#include <type_traits>\nnamespace ascsim_k0 {\n' + core_prologue("AIC")
            + kernel + "}\n")
    r = _syntax(tmp_path, code)
    assert r.returncode == 0, r.stderr[-3000:]


def test_tiling_intf_headers_reach_the_host_tiling_api(tmp_path):
    r = _syntax(tmp_path, '#include "lib/math/asin_tiling_intf.h"\n#include "lib/activation/softmax_tiling_intf.h"\n'
                          "void f() { uint32_t mx = 0, mn = 0; ge::Shape s({64});\n"
                          "  AscendC::GetSigmoidMaxMinTmpSize(s, 4, false, mx, mn); }\n")
    assert r.returncode == 0, r.stderr[-2000:]


def test_aclnn_argument_kinds_reach_the_op():
    """aclIntArray / aclFloatArray / aclScalarList for tensor inputs and list attributes; in-place outputs."""
    run_cpp_driver(CPP / "aclnn_args_test.cpp")


def test_host_code_sees_data_only_of_value_depend_inputs():
    """ValueDepend / InputsDataDependency inputs given as host values are data in tiling; nothing else is (issue 15)."""
    run_cpp_driver(CPP / "value_depend_test.cpp")


def test_tiling_data_definition_with_or_without_a_trailing_semicolon(tmp_path):
    code = ('#include "register/tilingdata_base.h"\nnamespace optiling {\n'
            "BEGIN_TILING_DATA_DEF(A)\nTILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\n"
            "BEGIN_TILING_DATA_DEF(B)\nTILING_DATA_FIELD_DEF(uint32_t, m);\nEND_TILING_DATA_DEF\n"
            "REGISTER_TILING_DATA_CLASS(OpA, A)\nREGISTER_TILING_DATA_CLASS(OpB, B)\n}\n"
            "void f() { optiling::A a; a.set_n(3); optiling::B b; b.set_m(a.get_n()); }\n")
    r = _syntax(tmp_path, code)
    assert r.returncode == 0, r.stderr[-2000:]


def test_a_builtin_l0_op_that_is_not_simulated_stops_the_build_by_name(tmp_path):
    r = _syntax(tmp_path, '#include "opdev/op_executor.h"\n#include "aclnn_kernels/transdata.h"\n')
    assert r.returncode != 0 and "ascsim: aclnn_kernels/transdata.h: a built-in l0 op" in r.stderr
    assert "op_executor.h" not in r.stderr   # the op-API layer itself is simulated


def test_aclnn_operator_api_layer():
    """Hand-written L2/L0 host code: two phases, launches of the build's own ops (OP_OUTSHAPE too), the data-movement
    l0 ops, a built-in op named when launched, device addresses host code cannot dereference."""
    run_cpp_driver(CPP / "opapi_test.cpp")


def test_operator_log_and_error_report_macros():
    """OP_LOGx(opName | errorCode, fmt, ...), REPORT_*_ERROR from the three toolkit paths; what reaches stderr when."""
    run_cpp_driver(CPP / "host_log_test.cpp")


def test_host_platform_queries_and_contexts():
    """fe::PlatFormInfos memory sizes and core count, ExtendedKernelContext, std names from platform_info.h."""
    run_cpp_driver(CPP / "host_platform_test.cpp")


def test_tiling_template_base_and_registry():
    """TilingBaseClass.DoTiling's step order and key; the registry's priority order, incapable and failing templates."""
    run_cpp_driver(CPP / "tiling_templates_test.cpp")


def test_acl_header_is_available_to_kernels(tmp_path):
    r = _syntax(tmp_path, '#include "kernel_operator.h"\n#include <acl/acl.h>\naclError f(aclrtStream s) { return s ? ACL_SUCCESS : 1; }\n')
    assert r.returncode == 0, r.stderr[-2000:]


def test_kernel_language_assert_c0count_scalar_intrinsics_and_queue_config():
    """assert/ascendc_assert check, GetC0Count(typeSize), global min/max intrinsics, TQue<pos, depth, &TQueConfig>."""
    run_cpp_driver(CPP / "kernel_language_test.cpp")
