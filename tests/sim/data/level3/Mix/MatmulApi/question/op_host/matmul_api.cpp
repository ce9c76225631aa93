#include "matmul_api_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& aShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetStorageShape();
    int32_t m = static_cast<int32_t>(aShape.GetDim(0));
    int32_t k = static_cast<int32_t>(aShape.GetDim(1));
    int32_t n = static_cast<int32_t>(bShape.GetDim(1));
    matmul_tiling::MultiCoreMatmulTiling mm(platform);
    mm.SetDim(static_cast<int32_t>(platform.GetCoreNumAic()));
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(m, n, k);
    mm.SetOrgShape(m, n, k);
    mm.SetBias(false);
    mm.SetBufferSpace(-1, -1, -1);
    MatmulApiTilingData tiling;
    if (mm.GetTiling(tiling.cubeTiling) == -1) {
        return ge::GRAPH_FAILED;
    }
    context->SetBlockDim(tiling.cubeTiling.get_usedCoreNum());
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 16 * 1024 * 1024;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class MatmulApi : public OpDef {
public:
    explicit MatmulApi(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulApi);
} // namespace ops
