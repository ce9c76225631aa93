// How EXEC_NPU_CMD's arguments reach an op, as the generated aclnn API defines them (references: the aclnn API
// conventions in the CANN docs): list arguments (aclIntArray / aclFloatArray / aclScalarList) given for a tensor input
// become a 1-D tensor of that input's dtype column (ValueDepend and ScalarList inputs); list attributes take int, float
// and scalar lists; an output named like an input is that input updated in place and has no argument of its own.
#include <cstring>
#include <stdexcept>
#include "register/op_def_registry.h"
#include "ascsim/bridge.h"
#include "check.h"

using ascsim::HostArg;

namespace {
struct Seen {   // what the tiling function and the kernel received
    std::vector<int64_t> attr_ints;
    std::vector<float> attr_floats;
    int64_t idx_dtype = -1, idx_len = -1;
} g_seen;

ge::graphStatus ListTiling(gert::TilingContext* ctx) {
    g_seen.idx_dtype = ctx->GetInputDesc(1)->GetDataType();
    g_seen.idx_len = ctx->GetInputShape(1)->GetStorageShape().GetDim(0);
    // the documented typed vectors: GetData() is already `const int64_t*` / `const float*`, indexable as host
    // code writes it (`mList[i]`); the untyped base stays usable too
    const auto* ints = ctx->GetAttrs()->GetListInt(0);
    const auto* floats = ctx->GetAttrs()->GetListFloat(1);
    const int64_t* int_data = ints->GetData();
    const float* float_data = floats->GetData();
    const gert::ContinuousVector* base = ints;
    g_seen.attr_ints.assign(int_data, int_data + ints->GetSize());
    if (base->GetSize() != ints->GetSize() || (ints->GetSize() && static_cast<const int64_t*>(base->GetData())[0] != int_data[0]))
        g_seen.attr_ints.clear();
    g_seen.attr_floats.assign(float_data, float_data + floats->GetSize());
    ctx->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
ge::graphStatus OneCore(gert::TilingContext* ctx) { ctx->SetBlockDim(1); return ge::GRAPH_SUCCESS; }
}  // namespace

namespace ops {
class ListOp : public OpDef {
public:
    explicit ListOp(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT});
        Input("idx").ParamType(REQUIRED).ValueDepend(REQUIRED).DataType({ge::DT_INT64, ge::DT_INT32});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
        Attr("dims").ListInt();
        Attr("scales").ListFloat();
        AICore().SetTiling(ListTiling);
    }
};
OP_ADD(ListOp);
class ScaleList : public OpDef {   // y = x * scalars[0] (a ScalarList input)
public:
    explicit ScaleList(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Input("scalars").ScalarList().ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        AICore().SetTiling(OneCore);
    }
};
OP_ADD(ScaleList);
class AddInto : public OpDef {   // var += value, in place
public:
    explicit AddInto(const char* name) : OpDef(name) {
        Input("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Output("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        AICore().SetTiling(OneCore);
    }
};
OP_ADD(AddInto);
}  // namespace ops

// kernels: plain launchers over the GM argument list (inputs, outputs, workspace, tiling)
static std::vector<int64_t> g_idx_seen;
static void list_kernel(uint8_t** a, size_t) {
    const int64_t* idx = reinterpret_cast<const int64_t*>(a[1]);
    g_idx_seen.assign(idx, idx + 3);
    reinterpret_cast<float*>(a[2])[0] = 1.0f;
}
static void scale_kernel(uint8_t** a, size_t) {
    const float* x = reinterpret_cast<const float*>(a[0]);
    const float* s = reinterpret_cast<const float*>(a[1]);
    float* y = reinterpret_cast<float*>(a[2]);
    for (int i = 0; i < 8; ++i) y[i] = x[i] * s[0] + s[1];
}
static void add_into_kernel(uint8_t** a, size_t) {
    const float* var = reinterpret_cast<const float*>(a[0]);
    const float* value = reinterpret_cast<const float*>(a[1]);
    float* out = reinterpret_cast<float*>(a[2]);
    for (int i = 0; i < 8; ++i) out[i] = var[i] + value[i];
}

static HostArg tensor(void* data, size_t n, int dtype, size_t elem) {
    HostArg a;
    a.kind = HostArg::TENSOR;
    a.data = data;
    a.nbytes = n * elem;
    a.dtype = dtype;
    a.shape = {int64_t(n)};
    return a;
}
static HostArg scalar(double v) { HostArg a; a.kind = HostArg::SCALAR; a.scalar_is_float = true; a.f = v; return a; }

int main() {
    const int col0[] = {0}, col1[] = {1};
    ascsim::register_kernel("ListOp", col0, 1, &list_kernel, nullptr, 0);
    ascsim::register_kernel("ScaleList", col0, 1, &scale_kernel, nullptr, 0);
    ascsim::register_kernel("AddInto", col0, 1, &add_into_kernel, nullptr, 0);

    // aclIntArray for a ValueDepend int64 input, int list and scalar list for list attributes
    {
        float x[8] = {}, y[8] = {};
        HostArg idx; idx.kind = HostArg::INT_LIST; idx.li = {7, -2, 40};
        HostArg dims; dims.kind = HostArg::INT_LIST; dims.li = {2, 3};
        HostArg scales; scales.kind = HostArg::SCALAR_LIST; scales.list = {scalar(0.5), scalar(-4)};
        std::vector<HostArg> args = {tensor(x, 8, ge::DT_FLOAT, 4), idx, dims, scales, tensor(y, 8, ge::DT_FLOAT, 4)};
        std::string err = throws([&] { ascsim::exec_npu_cmd("aclnnListOp", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(g_seen.idx_dtype == ge::DT_INT64 && g_seen.idx_len == 3);
        CHECK(g_idx_seen == std::vector<int64_t>({7, -2, 40}));
        CHECK(g_seen.attr_ints == std::vector<int64_t>({2, 3}));
        CHECK(g_seen.attr_floats == std::vector<float>({0.5f, -4.0f}));
        CHECK(y[0] == 1.0f);
    }
    // the dtype column picks the list's element type: column 1 takes int32 (y is float16 there)
    {
        float x[8] = {};
        uint16_t y[8] = {};
        HostArg idx; idx.kind = HostArg::INT_LIST; idx.li = {1, 2, 3};
        HostArg dims; dims.kind = HostArg::INT_LIST;
        HostArg scales; scales.kind = HostArg::FLOAT_LIST; scales.lf = {1.25};
        std::vector<HostArg> args = {tensor(x, 8, ge::DT_FLOAT, 4), idx, dims, scales, tensor(y, 8, ge::DT_FLOAT16, 2)};
        ascsim::register_kernel("ListOp", col1, 1, &list_kernel, nullptr, 0);
        std::string err = throws([&] { ascsim::exec_npu_cmd("aclnnListOp", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(g_seen.idx_dtype == ge::DT_INT32 && g_seen.idx_len == 3);
        CHECK(g_seen.attr_floats == std::vector<float>({1.25f}));
    }
    // aclScalarList for a ScalarList input: a 1-D tensor of the column's dtype
    {
        float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {};
        HostArg s; s.kind = HostArg::SCALAR_LIST; s.list = {scalar(3), scalar(0.5)};
        std::vector<HostArg> args = {tensor(x, 8, ge::DT_FLOAT, 4), s, tensor(y, 8, ge::DT_FLOAT, 4)};
        std::string err = throws([&] { ascsim::exec_npu_cmd("aclnnScaleList", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(y[0] == 3.5f && y[7] == 24.5f);
    }
    // an in-place output has no argument: (var, value) updates var
    {
        float var[8] = {1, 1, 1, 1, 1, 1, 1, 1}, value[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        std::vector<HostArg> args = {tensor(var, 8, ge::DT_FLOAT, 4), tensor(value, 8, ge::DT_FLOAT, 4)};
        std::string err = throws([&] { ascsim::exec_npu_cmd("aclnnAddInto", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(var[0] == 1.0f && var[7] == 8.0f);
        // the spelled-out form (var, value, var) still works, and a wrong count still names the expected shape
        std::vector<HostArg> three = {tensor(var, 8, ge::DT_FLOAT, 4), tensor(value, 8, ge::DT_FLOAT, 4), tensor(var, 8, ge::DT_FLOAT, 4)};
        CHECK(throws([&] { ascsim::exec_npu_cmd("aclnnAddInto", three); }).empty());
        CHECK(var[7] == 15.0f);
        std::vector<HostArg> one = {tensor(var, 8, ge::DT_FLOAT, 4)};
        CHECK(has(throws([&] { ascsim::exec_npu_cmd("aclnnAddInto", one); }), "expected 2 inputs, 0 attrs and 1 outputs"));
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
