#include <algorithm>
#include <cstring>
#include "smooth_l1_loss_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t TILE_ALIGN_ELEMS = 128;
constexpr uint32_t MAX_TILE_ELEMS = 4096;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint64_t UB_RESERVED = 8 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const char* reductionName = attrs->GetAttrPointer<char>(0);
    const float* beta = attrs->GetAttrPointer<float>(1);
    uint32_t reduction = 0;
    if (reductionName != nullptr && std::strcmp(reductionName, "sum") == 0) {
        reduction = 1;
    } else if (reductionName != nullptr && std::strcmp(reductionName, "mean") == 0) {
        reduction = 2;
    } else if (reductionName == nullptr || std::strcmp(reductionName, "none") != 0) {
        return ge::GRAPH_FAILED;
    }
    if (!(*beta > 0.0f)) {
        return ge::GRAPH_FAILED;
    }

    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    uint32_t blockElems = BLOCK_BYTES / typeSize;
    uint32_t totalBlocks = (total + blockElems - 1) / blockElems;
    uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, totalBlocks));

    // predict, label and y double-buffered, plus three float32 scratch tiles and the reduce scratch.
    uint32_t bytesPerElem = 3 * BUFFER_NUM * typeSize + 4 * 4;
    uint32_t tile = static_cast<uint32_t>((ubSize - UB_RESERVED) / bytesPerElem) / TILE_ALIGN_ELEMS * TILE_ALIGN_ELEMS;
    tile = std::min(tile, MAX_TILE_ELEMS);

    SmoothL1LossTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_bigCoreNum(totalBlocks % usedCores);
    tiling.set_smallCoreLength(totalBlocks / usedCores * blockElems);
    tiling.set_blockElems(blockElems);
    tiling.set_tileLength(tile);
    tiling.set_usedCoreNum(usedCores);
    tiling.set_reduction(reduction);
    tiling.set_beta(*beta);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    // One float32 partial sum per core, behind the system workspace.
    workspaces[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(usedCores) * sizeof(float);
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class SmoothL1Loss : public OpDef {
public:
    explicit SmoothL1Loss(const char* name) : OpDef(name)
    {
        this->Input("predict")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("label")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");
        this->Attr("beta").AttrType(OPTIONAL).Float(1.0f);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(SmoothL1Loss);
} // namespace ops
