#include <algorithm>
#include "triu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TILE_BYTES = 32 * 1024;   // per buffer; two input and two output buffers

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = platform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shape.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    uint32_t matrixRows = static_cast<uint32_t>(shape.GetDim(rank - 2));
    uint64_t total = shape.GetShapeSize();
    uint32_t totalRows = cols == 0 ? 0 : static_cast<uint32_t>(total / cols);
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    uint32_t blockElems = 32 / typeSize;
    uint32_t alignedCols = (cols + blockElems - 1) / blockElems * blockElems;
    uint32_t tileElems = TILE_BYTES / typeSize;
    uint32_t rowsPerTile = alignedCols == 0 ? 1 : std::max<uint32_t>(1, tileElems / alignedCols);

    uint32_t usedCores = std::max<uint32_t>(1, std::min(coreNum, totalRows));
    rowsPerTile = std::min(rowsPerTile, std::max<uint32_t>(1, (totalRows + usedCores - 1) / usedCores));
    const int64_t* diagonal = context->GetAttrs()->GetAttrPointer<int64_t>(0);

    TriuTilingData tiling;
    tiling.set_totalRows(totalRows);
    tiling.set_matrixRows(matrixRows);
    tiling.set_cols(cols);
    tiling.set_alignedCols(alignedCols);
    tiling.set_bigCoreNum(totalRows % usedCores);
    tiling.set_smallCoreRows(totalRows / usedCores);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_colTile(tileElems);
    tiling.set_diagonal(*diagonal);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class Triu : public OpDef {
public:
    explicit Triu(const char* name) : OpDef(name)
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
        this->Attr("diagonal").AttrType(OPTIONAL).Int(0);

        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend910_93");
    }
};

OP_ADD(Triu);
} // namespace ops
