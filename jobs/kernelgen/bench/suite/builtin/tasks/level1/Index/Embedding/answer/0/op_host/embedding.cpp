#include <algorithm>
#include "embedding_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_BYTES = 16 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape& weightShape = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& indexShape = context->GetInputShape(1)->GetStorageShape();
    if (weightShape.GetDimNum() != 2 || indexShape.GetDimNum() != 1) {
        return ge::GRAPH_FAILED;
    }
    uint32_t numEmbeddings = static_cast<uint32_t>(weightShape.GetDim(0));
    uint32_t dim = static_cast<uint32_t>(weightShape.GetDim(1));
    uint32_t numIndices = static_cast<uint32_t>(indexShape.GetDim(0));
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;

    uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, numIndices));
    // One staging queue, double-buffered; a chunk is a whole number of 32-byte blocks.
    uint64_t tileBytes = std::min<uint64_t>(ubSize / BUFFER_NUM, MAX_TILE_BYTES) / 32 * 32;

    EmbeddingTilingData tiling;
    tiling.set_numIndices(numIndices);
    tiling.set_embeddingDim(dim);
    tiling.set_numEmbeddings(numEmbeddings);
    tiling.set_bigCoreNum(numIndices % usedCores);
    tiling.set_smallCoreRows(numIndices / usedCores);
    tiling.set_tileLength(static_cast<uint32_t>(tileBytes / typeSize));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class Embedding : public OpDef {
public:
    explicit Embedding(const char* name) : OpDef(name)
    {
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(Embedding);
} // namespace ops
