// Which input data host code sees (references: the CANN docs of OpParamDef::ValueDepend, of the tiling/infer-shape
// contexts' GetInputTensor and of OpImplRegisterV2::InputsDataDependency): only inputs declared data-dependent, and
// only when their argument is a host-side value (scalar, int/float/bool array); every other input's tensor carries
// its shape and dtype with a null data address. The kernel still receives every input's data.
#include <stdexcept>
#include "register/op_def_registry.h"
#include "ascsim/bridge.h"
#include "check.h"

using ascsim::HostArg;

namespace {
struct Seen {
    const void* x_data = reinterpret_cast<const void*>(1);
    const void* x_addr = reinterpret_cast<const void*>(1);
    int64_t x_size = -1;
    int x_dtype = -1;
    std::vector<int64_t> idx;
    bool idx_null = false;
    bool scalar_null = false;
    double scalar = 0;
} g;

ge::graphStatus DependTiling(gert::TilingContext* ctx) {
    const gert::Tensor* x = ctx->GetInputTensor(0);
    g.x_data = x->GetData<float>();
    g.x_addr = x->GetAddr();
    g.x_size = x->GetShapeSize();
    g.x_dtype = x->GetDataType();
    const gert::Tensor* idx = ctx->GetInputTensor(1);
    const int64_t* p = idx->GetData<int64_t>();
    g.idx_null = p == nullptr;
    g.idx.assign(p ? p : nullptr, p ? p + idx->GetShapeSize() : nullptr);
    ctx->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
ge::graphStatus ScalarTiling(gert::TilingContext* ctx) {
    const float* s = ctx->GetInputTensor(1)->GetData<float>();
    g.scalar_null = s == nullptr;
    g.scalar = s ? *s : 0;
    g.x_data = ctx->GetInputTensor(0)->GetData<float>();
    ctx->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace

namespace ops {
class DependOp : public OpDef {   // idx is ValueDepend, x is not
public:
    explicit DependOp(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Input("idx").ParamType(REQUIRED).ValueDepend(REQUIRED).DataType({ge::DT_INT64});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        AICore().SetTiling(DependTiling);
    }
};
OP_ADD(DependOp);
class SneakyOp : public OpDef {   // a device tensor declared ValueDepend: still no data on the host
public:
    explicit SneakyOp(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).ValueDepend(OPTIONAL).DataType({ge::DT_FLOAT});
        Input("idx").ParamType(REQUIRED).DataType({ge::DT_INT64});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        AICore().SetTiling(DependTiling);
    }
};
OP_ADD(SneakyOp);
class ImplDepend : public OpDef {   // data dependency declared through the op-impl registration instead
public:
    explicit ImplDepend(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    }
};
OP_ADD(ImplDepend);
class NoDepend : public OpDef {    // the same op without any declaration: the scalar is not host data
public:
    explicit NoDepend(const char* name) : OpDef(name) {
        Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Input("k").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        AICore().SetTiling(ScalarTiling);
    }
};
OP_ADD(NoDepend);
}  // namespace ops
IMPL_OP_OPTILING(ImplDepend).Tiling(ScalarTiling).TilingInputsDataDependency({1});

static float g_kernel_x0 = 0;
static void copy_kernel(uint8_t** a, size_t) {   // the kernel sees x's data whatever the host saw
    g_kernel_x0 = reinterpret_cast<const float*>(a[0])[0];
    reinterpret_cast<float*>(a[2])[0] = g_kernel_x0;
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

int main() {
    const int col0[] = {0};
    for (const char* op : {"DependOp", "SneakyOp", "ImplDepend", "NoDepend"})
        ascsim::register_kernel(op, col0, 1, &copy_kernel, nullptr, 0);

    // an aclIntArray for the ValueDepend input is host data; x is shape and dtype only
    {
        float x[8] = {2.5f}, y[8] = {};
        HostArg idx; idx.kind = HostArg::INT_LIST; idx.li = {3, -1};
        std::vector<HostArg> args = {tensor(x, 8, ge::DT_FLOAT, 4), idx, tensor(y, 8, ge::DT_FLOAT, 4)};
        std::string err = throws([&] { ascsim::exec_npu_cmd("aclnnDependOp", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(g.x_data == nullptr && g.x_addr == nullptr);
        CHECK(g.x_size == 8 && g.x_dtype == ge::DT_FLOAT);
        CHECK(!g.idx_null && g.idx == std::vector<int64_t>({3, -1}));
        CHECK(g_kernel_x0 == 2.5f && y[0] == 2.5f);
    }
    // ValueDepend on a device tensor does not turn its data into host data
    {
        float x[8] = {1.5f}, y[8] = {};
        int64_t idx[2] = {4, 5};
        std::vector<HostArg> args = {tensor(x, 8, ge::DT_FLOAT, 4), tensor(idx, 2, ge::DT_INT64, 8), tensor(y, 8, ge::DT_FLOAT, 4)};
        std::string err = throws([&] { ascsim::exec_npu_cmd("aclnnSneakyOp", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(g.x_data == nullptr && g.idx_null);
        CHECK(y[0] == 1.5f);
    }
    // TilingInputsDataDependency({1}) makes a scalar argument host data; without a declaration it is not
    {
        float x[8] = {}, y[8] = {};
        HostArg k; k.kind = HostArg::SCALAR; k.scalar_is_float = true; k.f = 0.75;
        std::vector<HostArg> args = {tensor(x, 8, ge::DT_FLOAT, 4), k, tensor(y, 8, ge::DT_FLOAT, 4)};
        std::string err = throws([&] { ascsim::exec_npu_cmd("aclnnImplDepend", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(!g.scalar_null && g.scalar == 0.75 && g.x_data == nullptr);
        err = throws([&] { ascsim::exec_npu_cmd("aclnnNoDepend", args); });
        CHECK_MSG(err.empty(), "%s", err.c_str());
        CHECK(g.scalar_null);
    }
    std::printf("PASS %d FAIL %d\n", g_pass, g_fail);
    return g_fail != 0;
}
