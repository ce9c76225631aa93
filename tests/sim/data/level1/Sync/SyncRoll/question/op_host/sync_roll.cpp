#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SyncRollTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(int32_t, mode);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SyncRoll, SyncRollTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SyncRollTilingData tiling;
    uint32_t n = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const int64_t* mode = context->GetAttrs()->GetInt(0);
    tiling.set_n(n);
    tiling.set_mode(mode ? static_cast<int32_t>(*mode) : 0);
    context->SetBlockDim(n);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = n * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SyncRoll : public OpDef {
public:
    explicit SyncRoll(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("mode").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(SyncRoll);
}  // namespace ops
