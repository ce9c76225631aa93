// The aclnn operator-API layer as hand-written L2/L0 host code uses it (references: the opdev API docs: CREATE_EXECUTOR,
// ReleaseTo, GetWorkspaceSize, CommonOpExecutorRun, ADD_TO_LAUNCHER_LIST_AICORE with OP_INPUT / OP_OUTPUT / OP_ATTR /
// OP_OUTSHAPE (9 words: the dimension count, then the dimensions); the data-movement l0 ops by torch's semantics).
// Phase 1 records, phase 2 runs; launches go to the build's own ops; host code sees no host-dereferenceable data.
#include <cmath>
#include <cstring>
#include "register/op_def_registry.h"
#include "opdev/op_executor.h"
#include "opdev/make_op_executor.h"
#include "aclnn_kernels/cast.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/transpose.h"
#include "aclnn_kernels/reshape.h"
#include "ascsim/bridge.h"
#include "check.h"

namespace {
ge::graphStatus OneCore(gert::TilingContext* ctx) { ctx->SetBlockDim(1); return ge::GRAPH_SUCCESS; }
int64_t g_scale_numel = 0;
float g_scale_factor = 0;
}  // namespace

namespace ops {
class ScaleBy : public OpDef {   // y = x * factor
public:
    explicit ScaleBy(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Attr("factor").Float();
        AICore().SetTiling([](gert::TilingContext* ctx) {
            g_scale_numel = ctx->GetInputShape(0)->GetStorageShape().GetShapeSize();
            g_scale_factor = *ctx->GetAttrs()->GetFloat(0);
            ctx->SetBlockDim(1);
            return ge::GRAPH_SUCCESS;
        });
    }
};
OP_ADD(ScaleBy);
class KeepPositive : public OpDef {   // y = the positive values of x, in order; y's length is known after the run
public:
    explicit KeepPositive(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).OutputShapeDependOnCompute();
        AICore().SetTiling(OneCore);
    }
};
OP_ADD(KeepPositive);
}  // namespace ops

// kernels: plain launchers over the GM argument list (inputs, outputs, [shape], workspace, tiling)
static void scale_kernel(uint8_t** a, size_t) {
    const float* x = reinterpret_cast<const float*>(a[0]);
    float* y = reinterpret_cast<float*>(a[1]);
    for (int64_t i = 0; i < g_scale_numel; ++i) y[i] = x[i] * g_scale_factor;
}
static size_t g_keep_nargs = 0;
static void keep_positive_kernel(uint8_t** a, size_t n) {
    g_keep_nargs = n;
    const float* x = reinterpret_cast<const float*>(a[0]);
    float* y = reinterpret_cast<float*>(a[1]);
    uint64_t* shape = reinterpret_cast<uint64_t*>(a[2]);
    uint64_t k = 0;
    for (int i = 0; i < 6; ++i)
        if (x[i] > 0) y[k++] = x[i];
    shape[0] = 1;
    shape[1] = k;
}

namespace l0op {
OP_TYPE_REGISTER(ScaleBy);
const aclTensor* ScaleBy(const aclTensor* x, float factor, aclOpExecutor* executor) {
    L0_DFX(ScaleBy, x, factor);
    aclTensor* y = executor->AllocTensor(x->GetViewShape(), ge::DT_FLOAT);
    auto ret = ADD_TO_LAUNCHER_LIST_AICORE(ScaleBy, OP_INPUT(x), OP_OUTPUT(y), OP_ATTR(factor));
    OP_CHECK(ret == ACLNN_SUCCESS, OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "launch failed"), return nullptr);
    return y;
}
}  // namespace l0op

// an L2 entry as real code writes one: half input -> Contiguous -> Cast(float) -> ScaleBy -> Cast(out) -> ViewCopy
static aclnnStatus aclnnScaleGetWorkspaceSize(const aclTensor* x, double factor, aclTensor* out, uint64_t* ws, aclOpExecutor** executor) {
    OP_CHECK_COMM_INPUT(ws, executor);
    L2_DFX_PHASE_1(aclnnScale, DFX_IN(x, factor), DFX_OUT(out));
    auto unique = CREATE_EXECUTOR();
    CHECK_RET(unique.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);
    OP_CHECK_NULL(x, return ACLNN_ERR_PARAM_NULLPTR);
    auto c = l0op::Contiguous(x, unique.get());
    auto f = l0op::Cast(c, op::DataType::DT_FLOAT, unique.get());
    auto y = l0op::ScaleBy(f, float(factor), unique.get());
    CHECK_RET(y != nullptr, ACLNN_ERR_INNER_NULLPTR);
    auto back = l0op::Cast(y, out->GetDataType(), unique.get());
    CHECK_RET(l0op::ViewCopy(back, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);
    *ws = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

static aclTensor* host_tensor(std::vector<int64_t> dims, aclDataType dt, void* data, std::vector<int64_t> strides = {}) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    return aclCreateTensor(dims.data(), dims.size(), dt, strides.empty() ? nullptr : strides.data(), 0, ACL_FORMAT_ND, &n, 1, data);
}
static uint16_t h(float f) { return ascsim::float_to_half_bits(f); }
static float f(uint16_t b) { return ascsim::half_bits_to_float(b); }

int main() {
    const int col0[] = {0};
    ascsim::register_kernel("ScaleBy", col0, 1, &scale_kernel, nullptr, 0);
    ascsim::register_kernel("KeepPositive", col0, 1, &keep_positive_kernel, nullptr, 0);

    // two phases: nothing runs in GetWorkspaceSize; the launch and the casts run in CommonOpExecutorRun
    {
        uint16_t x[4] = {h(1.5f), h(-2.0f), h(0.25f), h(3.0f)};
        uint16_t out[4] = {};
        aclTensor* tx = host_tensor({2, 2}, ACL_FLOAT16, x);
        aclTensor* to = host_tensor({2, 2}, ACL_FLOAT16, out);
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        CHECK(aclnnScaleGetWorkspaceSize(tx, 3.0, to, &ws, &ex) == ACLNN_SUCCESS);
        CHECK(ex != nullptr && ws > 0);
        CHECK(out[0] == 0 && g_scale_numel == 0);   // recorded, not run
        std::string err = throws([&] { CHECK(CommonOpExecutorRun(nullptr, ws, ex, nullptr) == ACLNN_SUCCESS); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(g_scale_numel == 4 && g_scale_factor == 3.0f);
        CHECK(f(out[0]) == 4.5f && f(out[1]) == -6.0f && f(out[2]) == 0.75f && f(out[3]) == 9.0f);
        aclDestroyTensor(tx);
        aclDestroyTensor(to);
    }
    // host code gets device addresses: not the host memory, and not dereferenceable (non-canonical)
    {
        float x[2] = {1, 2};
        aclTensor* t = host_tensor({2}, ACL_FLOAT, x);
        uintptr_t a = reinterpret_cast<uintptr_t>(t->GetData());
        CHECK(a != reinterpret_cast<uintptr_t>(x) && (a >> 62) == 1 && t->GetStorageAddr() == t->GetData());
        aclDestroyTensor(t);
    }
    // Cast follows torch: float -> int32 truncates toward zero, -> bool tests non-zero, -> float16 rounds to even
    {
        float x[4] = {-1.7f, 2.9f, 0.0f, 65519.0f};
        int32_t i32[4] = {};
        uint8_t b[4] = {};
        uint16_t hv[4] = {};
        aclTensor* tx = host_tensor({4}, ACL_FLOAT, x);
        aclTensor* ti = host_tensor({4}, ACL_INT32, i32);
        aclTensor* tb = host_tensor({4}, ACL_BOOL, b);
        aclTensor* th = host_tensor({4}, ACL_FLOAT16, hv);
        auto u = CREATE_EXECUTOR();
        l0op::ViewCopy(l0op::Cast(tx, op::DataType::DT_INT32, u.get()), ti, u.get());
        l0op::ViewCopy(l0op::Cast(tx, op::DataType::DT_BOOL, u.get()), tb, u.get());
        l0op::ViewCopy(l0op::Cast(tx, op::DataType::DT_FLOAT16, u.get()), th, u.get());
        aclOpExecutor* ex = nullptr;
        u.ReleaseTo(&ex);
        CHECK(CommonOpExecutorRun(nullptr, 0, ex, nullptr) == ACLNN_SUCCESS);
        CHECK(i32[0] == -1 && i32[1] == 2 && i32[2] == 0 && i32[3] == 65519);
        CHECK(b[0] == 1 && b[1] == 1 && b[2] == 0 && b[3] == 1);
        CHECK(f(hv[0]) == ascsim::half_bits_to_float(h(-1.7f)) && f(hv[3]) == 65504.0f);   // 65519 rounds down to the max
        for (auto* t : {tx, ti, tb, th}) aclDestroyTensor(t);
    }
    // Transpose, BroadcastTo, Reshape (-1 inferred) and Contiguous of a strided view
    {
        float x[6] = {0, 1, 2, 3, 4, 5};   // [[0,1,2],[3,4,5]]
        float tr[6] = {}, bc[6] = {}, cont[3] = {};
        float row[3] = {7, 8, 9};
        aclTensor* tx = host_tensor({2, 3}, ACL_FLOAT, x);
        aclTensor* ttr = host_tensor({3, 2}, ACL_FLOAT, tr);
        aclTensor* trow = host_tensor({3}, ACL_FLOAT, row);
        aclTensor* tbc = host_tensor({2, 3}, ACL_FLOAT, bc);
        aclTensor* col = host_tensor({2}, ACL_FLOAT, x, {3});   // x[:, 0]: strided
        aclTensor* tcont = host_tensor({2}, ACL_FLOAT, cont);
        auto u = CREATE_EXECUTOR();
        int64_t perm[2] = {1, 0};
        l0op::ViewCopy(l0op::Transpose(tx, u->AllocIntArray(perm, 2), u.get()), ttr, u.get());
        int64_t shape[2] = {2, 3};
        l0op::ViewCopy(l0op::BroadcastTo(trow, u->AllocIntArray(shape, 2), u.get()), tbc, u.get());
        CHECK(!col->IsContiguous());
        const aclTensor* c = l0op::Contiguous(col, u.get());
        CHECK(c != col && c->IsContiguous());
        l0op::ViewCopy(c, tcont, u.get());
        int64_t flat[2] = {3, -1};
        const aclTensor* r = l0op::Reshape(tx, u->AllocIntArray(flat, 2), u.get());
        CHECK(r->GetViewShape() == op::Shape({3, 2}));
        int64_t bad[2] = {4, 4};
        CHECK(l0op::Reshape(tx, u->AllocIntArray(bad, 2), u.get()) == nullptr);
        int64_t nob[2] = {2, 4};
        CHECK(l0op::BroadcastTo(trow, u->AllocIntArray(nob, 2), u.get()) == nullptr);
        aclOpExecutor* ex = nullptr;
        u.ReleaseTo(&ex);
        CHECK(CommonOpExecutorRun(nullptr, 0, ex, nullptr) == ACLNN_SUCCESS);
        CHECK(tr[0] == 0 && tr[1] == 3 && tr[2] == 1 && tr[3] == 4 && tr[4] == 2 && tr[5] == 5);
        CHECK(bc[0] == 7 && bc[2] == 9 && bc[3] == 7 && bc[5] == 9);
        CHECK(cont[0] == 0 && cont[1] == 3);
        for (auto* t : {tx, ttr, trow, tbc, col, tcont}) aclDestroyTensor(t);
    }
    // OP_OUTSHAPE: the kernel gets one more GM argument after the outputs; its words resize the output
    {
        float x[6] = {-1, 2, 0, 5, -3, 7};
        float y[6] = {};
        aclTensor* tx = host_tensor({6}, ACL_FLOAT, x);
        aclTensor* ty = host_tensor({6}, ACL_FLOAT, y);
        auto u = CREATE_EXECUTOR();
        aclOpExecutor* executor = u.get();
        aclTensor* shape = executor->AllocTensor(op::Shape{9}, op::DataType::DT_INT64);
        CHECK(ADD_TO_LAUNCHER_LIST_AICORE(KeepPositive, OP_INPUT(tx), OP_OUTPUT(ty), OP_OUTSHAPE({shape, 0})) == ACLNN_SUCCESS);
        aclOpExecutor* ex = nullptr;
        u.ReleaseTo(&ex);
        std::string err = throws([&] { CommonOpExecutorRun(nullptr, 0, ex, nullptr); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(g_keep_nargs == 5);   // x, y, shape, workspace, tiling
        CHECK(y[0] == 2 && y[1] == 5 && y[2] == 7);
        CHECK(ty->GetViewShape() == op::Shape({3}));
        for (auto* t : {tx, ty}) aclDestroyTensor(t);
    }
    // a launch of an op the build does not register (a toolkit built-in) fails in phase 1, naming it
    {
        float x[2] = {};
        aclTensor* tx = host_tensor({2}, ACL_FLOAT, x);
        auto u = CREATE_EXECUTOR();
        aclOpExecutor* executor = u.get();
        std::string err = throws([&] { ADD_TO_LAUNCHER_LIST_AICORE(TopKV2, OP_INPUT(tx), OP_OUTPUT(tx), OP_ATTR(true, int64_t(0), false)); });
        CHECK_MSG(has(err, "ADD_TO_LAUNCHER_LIST_AICORE(TopKV2)") && has(err, "built-in kernels are not simulated"), "%s", err.c_str());
        CHECK(executor->steps.empty());
        aclDestroyTensor(tx);
    }
    // op:: helpers: broadcasting, promotion, the platform's SoC
    {
        op::Shape out;
        CHECK(op::BroadcastInferShape(op::Shape({4, 1, 3}), op::Shape({2, 1}), out) && out == op::Shape({4, 2, 3}));
        CHECK(!op::BroadcastInferShape(op::Shape({3}), op::Shape({4}), out));
        CHECK(op::PromoteType(ge::DT_FLOAT16, ge::DT_BF16) == ge::DT_FLOAT);
        CHECK(op::PromoteType(ge::DT_INT32, ge::DT_FLOAT16) == ge::DT_FLOAT16);
        CHECK(op::PromoteType(ge::DT_BOOL, ge::DT_INT8) == ge::DT_INT8);
        auto soc = op::GetCurrentPlatformInfo().GetSocVersion();
        CHECK(soc >= op::SocVersion::ASCEND910B && soc <= op::SocVersion::ASCEND910E);
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
