#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ListSumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, perCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ListSum, ListSumTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    uint32_t total = static_cast<uint32_t>(context->GetDynamicInputShape(0, 0)->GetStorageShape().GetShapeSize());
    uint32_t cores = 3;
    ListSumTilingData tiling;
    tiling.set_perCore((total + cores - 1) / cores);
    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ListSum : public OpDef {
public:
    explicit ListSum(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(ListSum);
}  // namespace ops
