#include <algorithm>
#include "reduce_sum_last_dim_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ELEMS = 4096;   // elements per input buffer; a multiple of every block size
constexpr uint32_t OUT_BATCH = 256;

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
    if (cols == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    uint32_t blockElems = 32 / typeSize;
    uint32_t alignedCols = (cols + blockElems - 1) / blockElems * blockElems;
    uint32_t rowsPerTile = alignedCols <= TILE_ELEMS ? TILE_ELEMS / alignedCols : 1;

    uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, rows));
    uint32_t rowsPerCore = (rows + usedCores - 1) / usedCores;
    rowsPerTile = std::max<uint32_t>(1, std::min(rowsPerTile, rowsPerCore));

    ReduceSumLastDimTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_alignedCols(alignedCols);
    tiling.set_bigCoreNum(rows % usedCores);
    tiling.set_smallCoreRows(rows / usedCores);
    tiling.set_tileLength(TILE_ELEMS);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_outBatch(OUT_BATCH);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class ReduceSumLastDim : public OpDef {
public:
    explicit ReduceSumLastDim(const char* name) : OpDef(name)
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

OP_ADD(ReduceSumLastDim);
} // namespace ops
