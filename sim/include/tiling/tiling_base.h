// ascsim: the ops repositories' tiling-template base class, for op_host code built on it (vendor include name).
// A template derives from TilingBaseClass and fills in the steps; DoTiling runs them in order: shape/attribute
// info, platform info, the capability check (a template that is not capable answers GRAPH_PARAM_INVALID so the
// registry can try the next one), the op's own tiling, library-API tiling, workspace sizes, post-processing, then
// records GetTilingKey() on the context. Any step that does not succeed ends DoTiling with its status.
#ifndef ASCSIM_TILING_TILING_BASE_H_
#define ASCSIM_TILING_TILING_BASE_H_
#include <cstdint>
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {

struct AiCoreParams {
    uint64_t ubSize;
    uint64_t blockDim;
    uint64_t aicNum;
    uint64_t l1Size;
    uint64_t l0aSize;
    uint64_t l0bSize;
    uint64_t l0cSize;
};

class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    TilingBaseClass() = default;
    virtual ~TilingBaseClass() = default;

    virtual ge::graphStatus DoTiling() {
        ge::graphStatus s = GetShapeAttrsInfo();
        if (s != ge::GRAPH_SUCCESS) return s;
        if ((s = GetPlatformInfo()) != ge::GRAPH_SUCCESS) return s;
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        if ((s = DoOpTiling()) != ge::GRAPH_SUCCESS) return s;
        if ((s = DoLibApiTiling()) != ge::GRAPH_SUCCESS) return s;
        if ((s = GetWorkspaceSize()) != ge::GRAPH_SUCCESS) return s;
        if ((s = PostTiling()) != ge::GRAPH_SUCCESS) return s;
        context_->SetTilingKey(GetTilingKey());
        DumpTilingInfo();
        return ge::GRAPH_SUCCESS;
    }
    virtual void Reset(gert::TilingContext* context) { context_ = context; }

protected:
    virtual bool IsCapable() = 0;
    virtual ge::graphStatus GetPlatformInfo() = 0;
    virtual ge::graphStatus GetShapeAttrsInfo() = 0;
    virtual ge::graphStatus DoOpTiling() = 0;
    virtual ge::graphStatus DoLibApiTiling() = 0;
    virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;
    virtual void DumpTilingInfo() {}

    gert::TilingContext* context_ = nullptr;
    AiCoreParams aicoreParams_{0, 0, 0, 0, 0, 0, 0};
};

}  // namespace optiling
#endif  // ASCSIM_TILING_TILING_BASE_H_
