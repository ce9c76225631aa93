#include <algorithm>
#include "top_k_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COLS = 8192;
constexpr uint32_t MAX_K = 64;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shape.GetDimNum();
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    const int64_t* k = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (cols == 0 || cols > MAX_COLS || *k < 1 || *k > static_cast<int64_t>(std::min(cols, MAX_K))) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, rows));

    TopKTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_k(static_cast<uint32_t>(*k));
    tiling.set_bigCoreNum(rows % usedCores);
    tiling.set_smallCoreRows(rows / usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class TopK : public OpDef {
public:
    explicit TopK(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("k").AttrType(OPTIONAL).Int(1);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(TopK);
} // namespace ops
