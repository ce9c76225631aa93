#include <algorithm>
#include "matmul_relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// 128 x 128 fp16 operands take 32 KiB each in L0A/L0B (64 KiB); the fp32 128 x 128 result takes 64 KiB of L0C
// (128 KiB); two A and two B tiles in L1 take 128 KiB of 512 KiB.
constexpr uint32_t BASE_M = 128;
constexpr uint32_t BASE_N = 128;
constexpr uint32_t BASE_K = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cubeCores = platform.GetCoreNumAic();

    const gert::Shape& aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetStorageShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t m = static_cast<uint32_t>(aShape.GetDim(0));
    uint32_t k = static_cast<uint32_t>(aShape.GetDim(1));
    uint32_t n = static_cast<uint32_t>(bShape.GetDim(1));
    if (m == 0 || k == 0 || n == 0 || m > 65535 || k > 65535 || n > 65535) {
        return ge::GRAPH_FAILED;
    }
    uint32_t tiles = ((m + BASE_M - 1) / BASE_M) * ((n + BASE_N - 1) / BASE_N);

    MatmulReluTilingData tiling;
    tiling.set_m(m);
    tiling.set_k(k);
    tiling.set_n(n);
    tiling.set_baseM(BASE_M);
    tiling.set_baseN(BASE_N);
    tiling.set_baseK(BASE_K);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(std::max<uint32_t>(1, std::min(cubeCores, tiles)));
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = static_cast<size_t>(std::max<uint32_t>(1, std::min(cubeCores, tiles))) * BASE_M * BASE_N * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class MatmulRelu : public OpDef {
public:
    explicit MatmulRelu(const char* name) : OpDef(name)
    {
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(MatmulRelu);
} // namespace ops
