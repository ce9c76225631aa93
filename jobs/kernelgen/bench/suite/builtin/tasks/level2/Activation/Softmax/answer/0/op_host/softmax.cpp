#include <algorithm>
#include "softmax_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_COLS = 8192;
constexpr uint64_t MAX_TILE_BYTES = 32 * 1024;
constexpr uint64_t UB_RESERVED = 8 * 1024;   // left free for the vector library's scratch

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shape.GetDimNum();
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / (cols == 0 ? 1 : cols));
    if (cols == 0 || cols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = dtype == ge::DT_FLOAT ? 4 : 2;
    uint32_t blockElems = 32 / typeSize;
    uint32_t alignedCols = (cols + blockElems - 1) / blockElems * blockElems;
    uint32_t alignedColsF = (cols + 7) / 8 * 8;

    // Fixed scratch: float row for half inputs, reduce scratch, and a 32-byte reduce result.
    uint64_t fixedBytes = (dtype == ge::DT_FLOAT ? 0 : alignedColsF * 4) + alignedColsF * 4 + 32 + UB_RESERVED;
    uint64_t rowBytes = static_cast<uint64_t>(alignedCols) * typeSize;
    if (fixedBytes + 2 * BUFFER_NUM * rowBytes > ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint64_t perBuffer = std::min<uint64_t>((ubSize - fixedBytes) / (2 * BUFFER_NUM), MAX_TILE_BYTES);
    uint32_t rowsPerTile = static_cast<uint32_t>(std::max<uint64_t>(1, perBuffer / rowBytes));

    uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, rows));
    rowsPerTile = std::min(rowsPerTile, (rows + usedCores - 1) / usedCores);

    SoftmaxTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_alignedCols(alignedCols);
    tiling.set_bigCoreNum(rows % usedCores);
    tiling.set_smallCoreRows(rows / usedCores);
    tiling.set_rowsPerTile(std::max<uint32_t>(1, rowsPerTile));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class Softmax : public OpDef {
public:
    explicit Softmax(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(Softmax);
} // namespace ops
