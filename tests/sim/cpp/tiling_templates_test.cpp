// The tiling-template framework op_host code is built on (tiling/tiling_base.h, tiling/tiling_templates_registry.h),
// checked against its contract: DoTiling runs shape/attr info, platform info, the capability check, op tiling,
// library tiling, workspace, post-tiling in that order and records the tiling key; a template that is not capable
// answers GRAPH_PARAM_INVALID; the registry tries an op's templates from the lowest priority value up, passes over
// the incapable ones and stops at the first success or at any other failure.
#include <string>
#include "register/op_def_registry.h"
#include "tiling/tiling_base.h"
#include "tiling/tiling_templates_registry.h"
#include "check.h"

namespace optiling {
static std::string g_trace;

class Recording : public TilingBaseClass {
public:
    Recording(gert::TilingContext* c, const char* tag, bool capable, ge::graphStatus op_status, uint64_t key)
        : TilingBaseClass(c), tag_(tag), capable_(capable), op_status_(op_status), key_(key) {}

protected:
    bool IsCapable() override { g_trace += std::string(tag_) + ":capable "; return capable_; }
    ge::graphStatus GetPlatformInfo() override { g_trace += "platform "; aicoreParams_.ubSize = 196352; return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetShapeAttrsInfo() override { g_trace += "shape "; return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoOpTiling() override { g_trace += "op "; return op_status_; }
    ge::graphStatus DoLibApiTiling() override { g_trace += "lib "; return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return key_; }
    ge::graphStatus GetWorkspaceSize() override { g_trace += "ws "; return ge::GRAPH_SUCCESS; }
    ge::graphStatus PostTiling() override { g_trace += "post "; return ge::GRAPH_SUCCESS; }
    void DumpTilingInfo() override { g_trace += "dump"; }

private:
    const char* tag_;
    bool capable_;
    ge::graphStatus op_status_;
    uint64_t key_;
};

// Op "Picky": priority 5 is tried before 20 (registered first on purpose) and is not capable; 20 tiles.
struct PickyWide : Recording { explicit PickyWide(gert::TilingContext* c) : Recording(c, "wide", true, ge::GRAPH_SUCCESS, 20) {} };
struct PickyNarrow : Recording { explicit PickyNarrow(gert::TilingContext* c) : Recording(c, "narrow", false, ge::GRAPH_SUCCESS, 5) {} };
REGISTER_TILING_TEMPLATE("Picky", PickyWide, 20);
REGISTER_TILING_TEMPLATE("Picky", PickyNarrow, 5);
// Op "Broken": the first capable template fails in its op tiling; the later one must not run.
struct BrokenFirst : Recording { explicit BrokenFirst(gert::TilingContext* c) : Recording(c, "first", true, ge::GRAPH_FAILED, 1) {} };
struct BrokenLater : Recording { explicit BrokenLater(gert::TilingContext* c) : Recording(c, "later", true, ge::GRAPH_SUCCESS, 2) {} };
REGISTER_TILING_TEMPLATE("Broken", BrokenFirst, 1);
REGISTER_TILING_TEMPLATE("Broken", BrokenLater, 2);
// Op "Never": no template is capable.
struct NeverOne : Recording { explicit NeverOne(gert::TilingContext* c) : Recording(c, "never", false, ge::GRAPH_SUCCESS, 9) {} };
REGISTER_TILING_TEMPLATE("Never", NeverOne, 0);
}  // namespace optiling

static ge::graphStatus tile(const char* op, uint64_t* key) {
    gert::OpCallInfo info;
    info.op_type = op;
    gert::TilingData raw;
    gert::TilingContext ctx(&info, &raw);
    optiling::g_trace.clear();
    ge::graphStatus s = optiling::TilingRegistry::GetInstance().DoTilingImpl(&ctx);
    *key = ctx.GetTilingKey();
    return s;
}

int main() {
    uint64_t key = 0;
    CHECK(tile("Picky", &key) == ge::GRAPH_SUCCESS);
    CHECK_MSG(optiling::g_trace == "shape platform narrow:capable shape platform wide:capable op lib ws post dump",
              "%s", optiling::g_trace.c_str());
    CHECK(key == 20);
    CHECK(tile("Broken", &key) == ge::GRAPH_FAILED);
    CHECK_MSG(optiling::g_trace == "shape platform first:capable op ", "%s", optiling::g_trace.c_str());
    CHECK(key == 0);   // a failed template records no key
    CHECK(tile("Never", &key) == ge::GRAPH_FAILED);
    CHECK(tile("Unregistered", &key) == ge::GRAPH_FAILED);
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
