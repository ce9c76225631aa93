#include "register/op_def_registry.h"
#include "../op_kernel/scale_template_tiling.h"
#include "../op_kernel/scale_template_tiling_key.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto* t = context->GetTilingData<ScaleTemplateTilingData>();
    if (t == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* scale = attrs->GetFloat(0);
    const float* shift = attrs->GetFloat(1);
    const int64_t* mode = attrs->GetInt(2);
    const bool* negate = attrs->GetBool(3);
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t cores = 4;
    t->total = total;
    t->perCore = (total + cores - 1) / cores;
    t->scale = *scale;
    t->shift = *shift;
    uint64_t dtype = static_cast<uint64_t>(context->GetInputDesc(0)->GetDataType());
    context->SetTilingKey(GET_TPL_TILING_KEY(dtype, static_cast<uint64_t>(*mode), *negate ? 1 : 0));
    context->SetBlockDim(cores);
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScaleTemplate : public OpDef {
public:
    explicit ScaleTemplate(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("shift").AttrType(OPTIONAL).Float(0.0);
        this->Attr("mode").AttrType(OPTIONAL).Int(3);
        this->Attr("negate").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(ScaleTemplate);
}  // namespace ops
