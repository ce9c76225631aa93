// Host-side platform queries and contexts as tiling code uses them: fe::PlatFormInfos answers like
// platform_ascendc::PlatformAscendC (Atlas A2: 48 vector cores, 192 KiB UB of which 196352 B usable), the contexts
// share the ExtendedKernelContext base, and platform/platform_info.h makes map/vector/string visible unqualified;
// ge::UNKNOWN_DIM / UNKNOWN_DIM_NUM are the -1 / -2 dimension markers of shape inference; runtime/rt_ffts.h's
// rtGetC2cCtrlAddr answers (a named stand-in: the simulator synchronises cores without an FFTS block).
#include "register/op_def_registry.h"
#include "platform/platform_info.h"
#include "runtime/rt_ffts.h"
#include "check.h"

static vector<int64_t> dims_of(const gert::Shape& s) {   // unqualified, as host code writes it
    vector<int64_t> d;
    for (size_t i = 0; i < s.GetDimNum(); ++i) d.push_back(s.GetDim(i));
    return d;
}

int main() {
    gert::OpCallInfo info;
    info.out_shapes.resize(3);
    info.in_shapes.emplace_back(gert::Shape({4, 5}));
    gert::TilingData raw;
    gert::TilingContext tctx(&info, &raw);
    fe::PlatFormInfos* pi = tctx.GetPlatformInfo();
    uint64_t ub = 0, l1 = 0, expect_ub = 0;
    pi->GetLocalMemSize(fe::LocalMemType::UB, ub);
    pi->GetLocalMemSize(fe::LocalMemType::L1, l1);
    platform_ascendc::PlatformAscendC(pi).GetCoreMemSize(platform_ascendc::CoreMemType::UB, expect_ub);
    CHECK(ub == 196352 && ub == expect_ub);
    CHECK(l1 == 512 * 1024 - 256);
    CHECK(pi->GetCoreNum() == platform_ascendc::PlatformAscendC(pi).GetCoreNum() && pi->GetCoreNum() == 48);
    gert::InferShapeContext ictx(&info);
    auto* ext = reinterpret_cast<gert::ExtendedKernelContext*>(&ictx);
    CHECK(ext->GetComputeNodeOutputNum() == 3 && ext->GetComputeNodeInputNum() == 1);
    map<string, vector<int64_t>> m{{"x", dims_of(*ictx.GetInputShape(0))}};
    CHECK(m["x"] == vector<int64_t>({4, 5}));
    {   // shape-inference markers, reached unqualified after `using namespace ge` as proto code writes them
        using namespace ge;
        CHECK(UNKNOWN_DIM == -1 && UNKNOWN_DIM_NUM == -2 && ictx.GetInputShape(0)->GetDim(0) != UNKNOWN_DIM);
    }
    uint64_t ffts = 1;
    uint32_t ffts_len = 1;   // the simulator needs no FFTS control block: address 0, success
    CHECK(rtGetC2cCtrlAddr(&ffts, &ffts_len) == RT_ERROR_NONE && ffts == 0 && ffts_len == 0);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
