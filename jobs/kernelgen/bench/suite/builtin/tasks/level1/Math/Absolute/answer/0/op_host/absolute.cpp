#include <algorithm>
#include "absolute_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t TILE_ALIGN_ELEMS = 128;   // whole 256-byte vector repeats for every dtype used here
constexpr uint32_t MAX_TILE_ELEMS = 4096;
constexpr uint32_t BUFFER_NUM = 2;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dtype == ge::DT_FLOAT ? 4 : 2;
    uint32_t blockElems = BLOCK_BYTES / typeSize;
    if (dtype != ge::DT_FLOAT && dtype != ge::DT_FLOAT16 && dtype != ge::DT_BF16) {
        return ge::GRAPH_FAILED;
    }

    uint32_t totalBlocks = (total + blockElems - 1) / blockElems;
    uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, totalBlocks));
    uint32_t smallBlocks = totalBlocks / usedCores;
    uint32_t bigCoreNum = totalBlocks % usedCores;

    // x and y are double-buffered; bfloat16 also needs a 16-bit sign-mask tile.
    uint32_t bytesPerElem = 2 * BUFFER_NUM * typeSize + (dtype == ge::DT_BF16 ? 2 : 0);
    uint32_t tile = static_cast<uint32_t>(ubSize / bytesPerElem) / TILE_ALIGN_ELEMS * TILE_ALIGN_ELEMS;
    tile = std::min(tile, MAX_TILE_ELEMS);

    AbsoluteTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_bigCoreNum(bigCoreNum);
    tiling.set_smallCoreLength(smallBlocks * blockElems);
    tiling.set_blockElems(blockElems);
    tiling.set_tileLength(tile);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class Absolute : public OpDef {
public:
    explicit Absolute(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
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

OP_ADD(Absolute);
} // namespace ops
