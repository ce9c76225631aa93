#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowLayerNormTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, hidden);
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF(float, epsilon);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, ln);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowLayerNorm, RowLayerNormTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t hidden = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / hidden);
    const float* eps = context->GetAttrs()->GetAttrPointer<float>(0);
    RowLayerNormTilingData tiling;
    // the whole tensor is one [1, rows, hidden] block on one core; the API plans its passes from the buffer it gets
    ge::Shape lnShape({1, rows, hidden, hidden});
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetLayerNormMaxMinTmpSize(lnShape, sizeof(float), false, maxTmp, minTmp);
    AscendC::GetLayerNormNDTilingInfo(lnShape, minTmp, sizeof(float), false, tiling.ln);
    tiling.set_rows(rows);
    tiling.set_hidden(hidden);
    tiling.set_tmpBytes(minTmp);
    tiling.set_epsilon(*eps);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RowLayerNorm : public OpDef {
public:
    explicit RowLayerNorm(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5f);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(RowLayerNorm);
}  // namespace ops
