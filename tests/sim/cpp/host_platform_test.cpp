// Host-side platform queries and contexts as tiling code uses them: fe::PlatFormInfos answers like
// platform_ascendc::PlatformAscendC (Atlas A2: 48 vector cores, 192 KiB UB of which 196352 B usable), the contexts
// share the ExtendedKernelContext base, and platform/platform_info.h makes map/vector/string visible unqualified;
// ge::UNKNOWN_DIM / UNKNOWN_DIM_NUM are the -1 / -2 dimension markers of shape inference; runtime/rt_ffts.h's
// rtGetC2cCtrlAddr answers (a named stand-in: the simulator synchronises cores without an FFTS block).
// The graph API's operator view (graph/operator.h, visible through op_def_registry.h as CheckSupported callbacks use
// it): ge::Operator answers the TensorDescs and attributes set on it; a missing name or index gives the documented
// default TensorDesc (DT_FLOAT, FORMAT_NCHW), TryGetInputDesc / GetAttr answer GRAPH_FAILED; the documented
// graphStatus values (GRAPH_NOT_CHANGED = 1343242304); ge::char_t. TilingDef::SetDataPtr(buf): the tiling struct's
// fields live in buf from then on (the SaveToBuffer layout), nested structs and arrays included.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(InnerT)
TILING_DATA_FIELD_DEF(uint16_t, a);
TILING_DATA_FIELD_DEF(int64_t, b);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(OuterT)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, arr);
TILING_DATA_FIELD_DEF_STRUCT(InnerT, inner);
TILING_DATA_FIELD_DEF(float, f);
END_TILING_DATA_DEF;
}  // namespace optiling
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
    {
        ge::Operator op("ReverseLike");
        const ge::char_t* in_name = "x";
        ge::TensorDesc x(ge::Shape({8, 3, 16}), ge::FORMAT_ND, ge::DT_FLOAT16);
        CHECK(op.UpdateInputDesc(in_name, x) == ge::GRAPH_SUCCESS);
        op.UpdateInputDesc("seq", ge::TensorDesc(ge::Shape({8}), ge::FORMAT_ND, ge::DT_INT64));
        op.UpdateOutputDesc("y", x);
        op.SetAttr("seq_dim", int64_t(1)).SetAttr("eps", 0.5f).SetAttr("mode", "sum").SetAttr("flag", true);
        op.SetAttr("axes", std::vector<int64_t>{0, 2});
        ge::TensorDesc got = op.GetInputDescByName("x");
        CHECK(got.GetShape().GetDims() == std::vector<int64_t>({8, 3, 16}) && got.GetDataType() == ge::DT_FLOAT16);
        CHECK(got.GetFormat() == ge::FORMAT_ND && op.GetInputDesc(1).GetShape().GetDim(0) == 8);
        CHECK(op.GetOutputDescByName("y").GetShape().GetDimNum() == 3 && op.GetInputsSize() == 2 && op.GetOutputsSize() == 1);
        ge::TensorDesc none = op.GetInputDescByName("absent");   // documented default object
        CHECK(none.GetDataType() == ge::DT_FLOAT && none.GetFormat() == ge::FORMAT_NCHW && none.GetShape().GetDimNum() == 0);
        CHECK(op.GetInputDesc(7).GetDataType() == ge::DT_FLOAT);
        ge::TensorDesc out;
        CHECK(op.TryGetInputDesc("seq", out) == ge::GRAPH_SUCCESS && out.GetDataType() == ge::DT_INT64);
        CHECK(op.TryGetInputDesc("absent", out) == ge::GRAPH_FAILED);
        int64_t dim = 0; int32_t dim32 = 0; float eps = 0; bool flag = false; ge::AscendString mode; std::vector<int64_t> axes;
        CHECK(op.GetAttr("seq_dim", dim) == ge::GRAPH_SUCCESS && dim == 1);
        CHECK(op.GetAttr("seq_dim", dim32) == ge::GRAPH_SUCCESS && dim32 == 1);
        CHECK(op.GetAttr("eps", eps) == ge::GRAPH_SUCCESS && eps == 0.5f);
        CHECK(op.GetAttr("flag", flag) == ge::GRAPH_SUCCESS && flag);
        CHECK(op.GetAttr("mode", mode) == ge::GRAPH_SUCCESS && std::string(mode.GetString()) == "sum" && mode.GetLength() == 3);
        CHECK(op.GetAttr("axes", axes) == ge::GRAPH_SUCCESS && axes == std::vector<int64_t>({0, 2}));
        CHECK(op.GetAttr("batch_dim", dim) == ge::GRAPH_FAILED && op.GetAttr("eps", dim) == ge::GRAPH_FAILED);
        ge::AscendString type;
        CHECK(op.GetOpType(type) == ge::GRAPH_SUCCESS && ge::AscendString("ReverseLike") == type);
        static_assert(ge::GRAPH_NOT_CHANGED == 1343242304u && ge::GRAPH_NODE_WITHOUT_CONST_INPUT == 50331648u, "graphStatus");
    }
    {
        alignas(8) uint8_t direct[256], saved[256];
        std::memset(direct, 0xAB, sizeof direct);
        std::memset(saved, 0xCD, sizeof saved);
        const int32_t arr[3] = {-1, 2, -3};
        {
            optiling::OuterT t;
            t.SetDataPtr(direct);
            t.set_n(7);
            t.set_arr(arr);
            t.inner.set_a(513);          // a nested struct's setter reaches the outer buffer
            t.inner.set_b(-5);
            t.set_f(1.5f);
            CHECK(*reinterpret_cast<uint32_t*>(direct) == 7);
            optiling::OuterT ref;
            ref.set_n(7); ref.set_arr(arr); ref.inner.set_a(513); ref.inner.set_b(-5); ref.set_f(1.5f);
            ref.SaveToBuffer(saved, sizeof saved);
            CHECK(t.GetDataSize() == ref.GetDataSize() && std::memcmp(direct, saved, t.GetDataSize()) == 0);
            t.get_arr()[1] = 42;         // a write through the array pointer: in the buffer once the struct is done
            ref.get_arr()[1] = 42;
            ref.SaveToBuffer(saved, sizeof saved);
            optiling::OuterT copy(t);    // a copy writes into no buffer
            copy.set_n(99);
            CHECK(*reinterpret_cast<uint32_t*>(direct) == 7);
        }
        CHECK(std::memcmp(direct, saved, optiling::OuterT().GetDataSize()) == 0);
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
