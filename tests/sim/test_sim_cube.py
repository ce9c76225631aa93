"""Kernel-type inference and core specialisation of the sim backend's cube builds (sim_cube), without compiling."""
from kernelgen.bench.backends import sim_cube as sc


def test_kernel_type_from_source():
    assert sc.kernel_type(["Add(z, x, y, n);"]) == 0                                   # vector only
    assert sc.kernel_type(["// no Mmad here\nAdd(z, x, y, n); const char* s = \"LoadData\";"]) == 0
    assert sc.kernel_type(["Mmad(c, a, b, p);"]) == 1                                  # AIC only
    assert sc.kernel_type(["Mmad(c, a, b, p); if ASCEND_IS_AIV { Adds(x, x, 1.0f, n); }"]) == 5
    assert sc.kernel_type(["Fixpipe(g, c, p); CrossCoreSetFlag<2, PIPE_FIX>(1);"]) == 5
    assert sc.kernel_type(["KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1); Mmad(c, a, b, p);"]) == 4


def test_builds_and_idle_aic():
    assert sc.builds_of(0) == ["AIV"] and sc.builds_of(1) == ["AIC"] and sc.builds_of(5) == ["AIV", "AIC"]
    mm_api = ["REGIST_MATMUL_OBJ(&pipe, ws, mm, &t); mm.IterateAll(c);"]
    assert sc.kernel_type(mm_api) == 5 and sc.aic_idle(mm_api) and sc.builds_of(5, True) == ["AIV"]
    assert not sc.aic_idle(["REGIST_MATMUL_OBJ(&pipe, ws, mm, &t); Mmad(c, a, b, p);"])
    reg = sc.extra_registration("AIV", "Op", 1, 5, True)
    assert "register_cube_kernel(\"Op\"" in reg and sc.extra_registration("AIC", "Op", 1, 5, True) == ""


def test_in_class_core_specialisation_becomes_an_overload():
    src = ("template <int32_t CORE_TYPE = g_coreType> void operator()(Params const &p);\n"
           "template <> __forceinline__ void operator()<AscendC::AIC>(Params const &p) { Aic(); }\n"
           "template <> __aicore__ inline void operator()<AscendC::AIV>(Params const &p) { Aiv(); }\n")
    aic = sc.specialize_for_core(src, "AIC")
    assert "void operator()(Params const &p) { Aic(); }" in aic
    assert "void ascsim_other_core_AIV(Params const &p) { Aiv(); }" in aic
    aiv = sc.specialize_for_core(src, "AIV")
    assert "void operator()(Params const &p) { Aiv(); }" in aiv and "ascsim_other_core_AIC" in aiv
    assert "template <>" not in aic and "template <>" not in aiv
    assert "g_coreType = ::AscendC::AIC" in sc.core_prologue("AIC")


def test_explicit_core_calls_reach_the_rewritten_member():
    # with explicit template arguments only the declared-only primary template would be a candidate (undefined symbol)
    src = "k.template operator()<g_coreType>(p); q->template operator()<AscendC::AIV>(p); r.template operator() < AIC >(p);"
    aic = sc.specialize_for_core(src, "AIC")
    assert aic == "k.operator()(p); q->ascsim_other_core_AIV(p); r.operator()(p);"
    aiv = sc.specialize_for_core(src, "AIV")
    assert aiv == "k.operator()(p); q->operator()(p); r.ascsim_other_core_AIC(p);"
