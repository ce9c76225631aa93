#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowStatsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowStats, RowStatsTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    uint32_t perCore = 4;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    // one temporary buffer serves the three APIs in turn: the largest of their minimum sizes
    uint32_t mx = 0, mn = 0, tmp = 0;
    AscendC::GetCumSumMaxMinTmpSize(ge::Shape({perCore, cols}), 4, true, false, mx, mn);
    tmp = mn;
    AscendC::GetReduceMeanMaxMinTmpSize(ge::Shape({perCore, cols}), ge::DT_FLOAT, AscendC::ReducePattern::AR, true, false, mx, mn);
    tmp = mn > tmp ? mn : tmp;
    AscendC::GetBroadCastMaxMinTmpSize(platform, ge::Shape({perCore, 1}), ge::Shape({perCore, cols}), 4, false, mx, mn);
    tmp = mn > tmp ? mn : tmp;
    RowStatsTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_rowsPerCore(perCore);
    tiling.set_tmpBytes(tmp < 32 ? 32 : tmp);
    context->SetBlockDim((rows + perCore - 1) / perCore);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RowStats : public OpDef {
public:
    explicit RowStats(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(RowStats);
}  // namespace ops
