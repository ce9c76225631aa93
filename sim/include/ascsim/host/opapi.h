// ascsim host side: the aclnn operator-API layer (opdev) that hand-written L2/L0 host code is built on: op:: types and
// helpers, aclOpExecutor with its two phases (GetWorkspaceSize records, CommonOpExecutorRun runs), launches of the
// build's own ops (ADD_TO_LAUNCHER_LIST_AICORE, through the same path as the generated aclnn API), and the toolkit's
// data-movement l0 ops (Contiguous, ViewCopy, Cast, Reshape, Transpose, BroadcastTo), which run on the host here.
// Facts (names, signatures, return codes, the OP_OUTSHAPE layout) from the opdev API docs; the toolkit's other
// built-in l0 ops and kernels (TopKV2, BNInfer, TransData, ...) are not simulated: launching an op the build does not
// register fails, naming it.
#ifndef ASCSIM_HOST_OPAPI_H_
#define ASCSIM_HOST_OPAPI_H_
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>
#include "acl/acl.h"
#include "ascsim/bridge.h"
#include "ascsim/numeric.h"
#include "ascsim/host/acl_types.h"
#include "ascsim/host/opdef.h"
#include "ascsim/host/op_log.h"

struct aclOpExecutor;

namespace op {
using DataType = ge::DataType;
using Format = ge::Format;
using Shape = gert::Shape;
constexpr size_t MAX_DIM_NUM = 25;
template <class T, size_t N = 8> class SmallVector : public std::vector<T> {
public:
    using std::vector<T>::vector;
    SmallVector() = default;
    SmallVector(const std::vector<T>& v) : std::vector<T>(v) {}   // NOLINT: converts like the toolkit's
};
template <class T, size_t N = 8> using FVector = SmallVector<T, N>;
using Strides = FVector<int64_t, MAX_DIM_NUM>;
using ShapeVector = FVector<int64_t, MAX_DIM_NUM>;

enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND910_95, ASCEND910E, ASCEND310, ASCEND310P, ASCEND310B, ASCEND310C,
    ASCEND610LITE, KIRINX90, RESERVED_VERSION = 99999
};
class PlatformInfo {
public:
    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }   // the simulated Atlas A2 part
    int64_t GetBlockSize() const { return 32; }
    bool Valid() const { return true; }
};
inline const PlatformInfo& GetCurrentPlatformInfo() {
    static PlatformInfo p;
    return p;
}

struct Text {   // ToString's result: the toolkit returns an AscendString
    std::string s;
    const char* GetString() const { return s.c_str(); }
};
inline Text ToString(const Shape& s) {
    std::string r = "[";
    for (size_t k = 0; k < s.GetDimNum(); ++k) r += (k ? ", " : "") + std::to_string(s.GetDim(k));
    return {r + "]"};
}
inline Text ToString(DataType d) { return {"DT_" + std::to_string(int(d))}; }
inline Text ToString(Format f) { return {"FORMAT_" + std::to_string(int(f))}; }

inline size_t TypeSize(DataType d) { int s = ge::GetSizeByDataType(d); return s < 0 ? 0 : size_t(s); }
inline DataType ToOpDataType(aclDataType d) { return d; }
inline aclDataType ToAclDataType(DataType d) { return d; }
inline Format ToOpFormat(aclFormat f) { return f; }
inline aclFormat ToAclFormat(Format f) { return f; }
inline bool CheckType(DataType d, std::initializer_list<DataType> list) {
    return std::find(list.begin(), list.end(), d) != list.end();
}
inline bool IsComplexType(DataType d) { return d == ge::DT_COMPLEX64 || d == ge::DT_COMPLEX128 || d == ge::DT_COMPLEX32; }
inline bool IsFloatingType(DataType d) {
    return d == ge::DT_FLOAT || d == ge::DT_FLOAT16 || d == ge::DT_BF16 || d == ge::DT_DOUBLE;
}
inline bool IsIntegralType(DataType d) {
    return d == ge::DT_INT8 || d == ge::DT_UINT8 || d == ge::DT_INT16 || d == ge::DT_UINT16 || d == ge::DT_INT32 ||
           d == ge::DT_UINT32 || d == ge::DT_INT64 || d == ge::DT_UINT64;
}
inline bool IsIntegralType(DataType d, bool include_bool) { return IsIntegralType(d) || (include_bool && d == ge::DT_BOOL); }
inline bool IsRealNumberType(DataType d) { return IsFloatingType(d) || IsIntegralType(d); }
inline bool IsNumberType(DataType d) { return IsRealNumberType(d) || IsComplexType(d); }
inline bool IsBasicType(DataType d) { return IsNumberType(d) || d == ge::DT_BOOL; }

// torch's promotion lattice: bool < integers < floating; within floating, float16 with bfloat16 gives float32
inline DataType PromoteType(DataType a, DataType b) {
    if (a == b) return a;
    auto rank = [](DataType d) {
        switch (d) {
            case ge::DT_BOOL: return 0;
            case ge::DT_UINT8: return 1;
            case ge::DT_INT8: return 2;
            case ge::DT_INT16: return 3;
            case ge::DT_INT32: return 4;
            case ge::DT_INT64: return 5;
            case ge::DT_FLOAT16: case ge::DT_BF16: return 6;
            case ge::DT_FLOAT: return 7;
            case ge::DT_DOUBLE: return 8;
            default: return -1;
        }
    };
    int ra = rank(a), rb = rank(b);
    if (ra < 0 || rb < 0) return ge::DT_UNDEFINED;
    if (ra == 6 && rb == 6) return ge::DT_FLOAT;   // float16 with bfloat16
    if ((a == ge::DT_UINT8 && b == ge::DT_INT8) || (a == ge::DT_INT8 && b == ge::DT_UINT8)) return ge::DT_INT16;
    return ra > rb ? a : b;
}

inline ShapeVector ToShapeVector(const Shape& s) {
    ShapeVector v;
    for (size_t k = 0; k < s.GetDimNum(); ++k) v.push_back(s.GetDim(k));
    return v;
}
inline void ToShape(const int64_t* dims, uint64_t n, Shape& out) {
    out.SetDimNum(0);
    for (uint64_t k = 0; k < n; ++k) out.AppendDim(dims[k]);
}
inline void ToShape(const ShapeVector& v, Shape& out) { ToShape(v.data(), v.size(), out); }
inline Strides ToContiguousStrides(const Shape& s) { return Strides(aclTensor::ContiguousStrides(s)); }
inline void ToContiguousStrides(const Shape& s, Strides& out) { out = ToContiguousStrides(s); }
inline bool IsContiguous(const aclTensor* t) { return t && t->IsContiguous(); }

// numpy broadcasting, trailing dimensions aligned
inline bool BroadcastInferShape(const Shape& a, const Shape& b, Shape& out) {
    size_t n = std::max(a.GetDimNum(), b.GetDimNum());
    Shape r;
    r.SetDimNum(n);
    for (size_t k = 0; k < n; ++k) {
        int64_t da = k < n - a.GetDimNum() ? 1 : a.GetDim(k - (n - a.GetDimNum()));
        int64_t db = k < n - b.GetDimNum() ? 1 : b.GetDim(k - (n - b.GetDimNum()));
        if (da != db && da != 1 && db != 1) return false;
        r.SetDim(k, da == 1 ? db : da);
    }
    out = r;
    return true;
}
inline bool CheckBroadcastShape(const Shape& a, const Shape& b) { Shape s; return BroadcastInferShape(a, b, s); }
}  // namespace op

namespace ascsim {
namespace opapi {
// The host memory behind a tensor: for the simulator's own steps (launches, data movement), never for host code.
struct Access {
    static uint8_t* base(const aclTensor* t) { return t->base_; }
    static uint8_t* data(const aclTensor* t) { return t->base_ ? t->base_ + t->offset * int64_t(t->ElementSize()) : nullptr; }
    static void own(aclTensor* t, size_t bytes) {
        t->owned_ = std::make_shared<std::vector<uint8_t>>(bytes, 0);
        t->base_ = t->owned_->data();
    }
};
// An argument slot of a launch: a tensor, a tensor list or an absent optional.
struct Slot {
    const aclTensor* t = nullptr;
    const aclTensorList* list = nullptr;
};
inline Slot slot(const aclTensor* t) { return {t, nullptr}; }
inline Slot slot(const aclTensorList* l) { return {nullptr, l}; }
inline Slot slot(std::nullptr_t) { return {}; }
struct Inputs { std::vector<Slot> v; };
struct Outputs { std::vector<Slot> v; };
struct Attrs { std::vector<HostArg> v; };
struct OutShape {   // OP_OUTSHAPE({tensor, index}): where the kernel's shape words go, and which output they resize
    const aclTensor* tensor = nullptr;
    int64_t index = 0;
};
struct Ignored {};   // OP_WORKSPACE / OP_OPTION / OP_MODE / OP_EMPTY_ARG: no effect on a simulated launch

template <class... T> inline Inputs inputs(const T&... t) { return {{slot(t)...}}; }
template <class... T> inline Outputs outputs(const T&... t) { return {{slot(t)...}}; }

inline HostArg attr(bool b) { HostArg a; a.kind = HostArg::BOOL; a.b = b; return a; }
inline HostArg attr(float f) { HostArg a; a.kind = HostArg::FLOAT; a.f = f; return a; }
inline HostArg attr(double f) { HostArg a; a.kind = HostArg::FLOAT; a.f = f; return a; }
template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
inline HostArg attr(I i) { HostArg a; a.kind = HostArg::INT; a.i = int64_t(i); return a; }
inline HostArg attr(ge::DataType d) { return attr(int64_t(d)); }
inline HostArg attr(const std::string& s) { HostArg a; a.kind = HostArg::STR; a.s = s; return a; }
inline HostArg attr(const char* s) { return attr(std::string(s ? s : "")); }
inline HostArg attr(const aclIntArray* v) { HostArg a; a.kind = HostArg::INT_LIST; if (v) a.li = v->v; return a; }
inline HostArg attr(const aclBoolArray* v) { HostArg a; a.kind = HostArg::BOOL_LIST; if (v) a.li = v->v; return a; }
inline HostArg attr(const aclFloatArray* v) { HostArg a; a.kind = HostArg::FLOAT_LIST; if (v) a.lf = v->v; return a; }
template <class... T> inline Attrs attrs(const T&... t) { return {{attr(t)...}}; }
}  // namespace opapi
}  // namespace ascsim

// Phase 1 (GetWorkspaceSize) records steps; phase 2 (CommonOpExecutorRun) runs them in order and frees the executor.
struct aclOpExecutor : ascsim::AclArena {
    std::vector<std::function<void()>> steps;
    uint64_t workspace = 0;

    aclTensor* AllocTensor(const op::Shape& shape, op::DataType dt, op::Format fmt = ge::FORMAT_ND) {
        return AllocTensor(shape, shape, dt, fmt, fmt);
    }
    aclTensor* AllocTensor(const op::Shape& storage, const op::Shape& origin, op::DataType dt, op::Format storage_fmt,
                           op::Format origin_fmt) {
        aclTensor* t = make<aclTensor>();
        t->view_shape = origin;
        t->origin_shape = origin;
        t->storage_shape = storage;
        t->strides = aclTensor::ContiguousStrides(origin);
        t->dtype = dt;
        t->view_format = t->origin_format = origin_fmt;
        t->storage_format = storage_fmt;
        size_t bytes = size_t(std::max<int64_t>(storage.GetShapeSize(), 1)) * op::TypeSize(dt);
        ascsim::opapi::Access::own(t, bytes);
        t->from_workspace = true;
        workspace += (bytes + 32 + 511) / 512 * 512;   // the caching allocator's block rounding
        return t;
    }
    aclTensor* AllocTensor(op::DataType dt, op::Format storage_fmt, op::Format origin_fmt) {   // shape set later
        return AllocTensor(op::Shape{}, op::Shape{}, dt, storage_fmt, origin_fmt);
    }
    aclTensor* View(const aclTensor* x) { return make<aclTensor>(*x); }   // another view of x's storage
    aclIntArray* AllocIntArray(const int64_t* v, uint64_t n) {
        aclIntArray* a = make<aclIntArray>();
        a->v.assign(v, v + n);
        return a;
    }
    aclFloatArray* AllocFloatArray(const float* v, uint64_t n) {
        aclFloatArray* a = make<aclFloatArray>();
        a->v.assign(v, v + n);
        return a;
    }
    aclBoolArray* AllocBoolArray(const bool* v, uint64_t n) {
        aclBoolArray* a = make<aclBoolArray>();
        a->v.assign(v, v + n);
        return a;
    }
    aclTensorList* AllocTensorList(const aclTensor* const* t, uint64_t n) {
        aclTensorList* l = make<aclTensorList>();
        l->t.assign(t, t + n);
        return l;
    }
    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> aclScalar* AllocScalar(T v) {
        aclScalar* s = make<aclScalar>();
        s->is_float = std::is_floating_point_v<T>;
        if (s->is_float) s->f = double(v); else s->i = int64_t(v), s->f = double(v);
        s->dtype = std::is_same_v<T, bool> ? ge::DT_BOOL : std::is_same_v<T, float> ? ge::DT_FLOAT
                 : std::is_floating_point_v<T> ? ge::DT_DOUBLE : std::is_same_v<T, int32_t> ? ge::DT_INT32 : ge::DT_INT64;
        return s;
    }
    // A 1-element / n-element tensor holding the value(s) in dtype dt (a host constant on the device).
    aclTensor* ConvertToTensor(const aclScalar* s, op::DataType dt);
    aclTensor* ConvertToTensor(const aclIntArray* a, op::DataType dt);
    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
    aclTensor* ConvertToTensor(const T* v, uint64_t n, op::DataType dt);
    uint64_t GetWorkspaceSize() const { return workspace; }
    void AbandonCache(bool = false) {}
};

namespace ascsim {
namespace opapi {
// element access by dtype for Cast and ConvertToTensor: integers stay exact, floating values go through double
struct Value {
    double f = 0;
    int64_t i = 0;
    bool is_int = false;
};
inline Value load(ge::DataType d, const uint8_t* p) {
    Value v;
    auto as_int = [&](int64_t x) { v.is_int = true; v.i = x; v.f = double(x); };
    switch (d) {
        case ge::DT_FLOAT: { float x; std::memcpy(&x, p, 4); v.f = x; break; }
        case ge::DT_DOUBLE: { double x; std::memcpy(&x, p, 8); v.f = x; break; }
        case ge::DT_FLOAT16: { uint16_t b; std::memcpy(&b, p, 2); v.f = half_bits_to_float(b); break; }
        case ge::DT_BF16: { uint16_t b; std::memcpy(&b, p, 2); v.f = bf16_bits_to_float(b); break; }
        case ge::DT_BOOL: as_int(*p != 0); break;
        case ge::DT_INT8: as_int(int8_t(*p)); break;
        case ge::DT_UINT8: as_int(*p); break;
        case ge::DT_INT16: { int16_t x; std::memcpy(&x, p, 2); as_int(x); break; }
        case ge::DT_UINT16: { uint16_t x; std::memcpy(&x, p, 2); as_int(x); break; }
        case ge::DT_INT32: { int32_t x; std::memcpy(&x, p, 4); as_int(x); break; }
        case ge::DT_UINT32: { uint32_t x; std::memcpy(&x, p, 4); as_int(x); break; }
        case ge::DT_INT64: case ge::DT_UINT64: { int64_t x; std::memcpy(&x, p, 8); as_int(x); break; }
        default: throw std::runtime_error("[ascsim] l0op::Cast: dtype " + std::to_string(int(d)) + " is not simulated");
    }
    return v;
}
// torch's conversion rules (the toolkit's Cast follows them): floating to integer truncates toward zero, to
// bool tests for non-zero, to float16 / bfloat16 rounds to nearest even.
inline void store(ge::DataType d, uint8_t* p, const Value& v) {
    auto integral = [&]() -> int64_t { return v.is_int ? v.i : std::isfinite(v.f) ? int64_t(std::trunc(v.f)) : 0; };
    switch (d) {
        case ge::DT_FLOAT: { float x = v.is_int ? float(v.i) : float(v.f); std::memcpy(p, &x, 4); break; }
        case ge::DT_DOUBLE: { double x = v.is_int ? double(v.i) : v.f; std::memcpy(p, &x, 8); break; }
        case ge::DT_FLOAT16: { uint16_t b = float_to_half_bits(v.is_int ? float(v.i) : float(v.f)); std::memcpy(p, &b, 2); break; }
        case ge::DT_BF16: { uint16_t b = float_to_bf16_bits(v.is_int ? float(v.i) : float(v.f)); std::memcpy(p, &b, 2); break; }
        case ge::DT_BOOL: *p = v.is_int ? v.i != 0 : v.f != 0; break;
        case ge::DT_INT8: case ge::DT_UINT8: *p = uint8_t(integral()); break;
        case ge::DT_INT16: case ge::DT_UINT16: { uint16_t x = uint16_t(integral()); std::memcpy(p, &x, 2); break; }
        case ge::DT_INT32: case ge::DT_UINT32: { uint32_t x = uint32_t(integral()); std::memcpy(p, &x, 4); break; }
        case ge::DT_INT64: case ge::DT_UINT64: { int64_t x = integral(); std::memcpy(p, &x, 8); break; }
        default: throw std::runtime_error("[ascsim] l0op::Cast: dtype " + std::to_string(int(d)) + " is not simulated");
    }
}

// Visits every element of `shape` (row-major) with its offsets (in elements) under two stride vectors.
inline void for_each_index(const gert::Shape& shape, const std::vector<int64_t>& sa, int64_t oa, const std::vector<int64_t>& sb,
                           int64_t ob, const std::function<void(int64_t, int64_t)>& f) {
    size_t n = shape.GetDimNum();
    int64_t total = shape.GetShapeSize();
    std::vector<int64_t> idx(n, 0);
    for (int64_t e = 0; e < total; ++e) {
        int64_t a = oa, b = ob;
        for (size_t k = 0; k < n; ++k) a += idx[k] * sa[k], b += idx[k] * sb[k];
        f(a, b);
        for (size_t k = n; k-- > 0;) {
            if (++idx[k] < shape.GetDim(k)) break;
            idx[k] = 0;
        }
    }
}
// dst[view] = src[view] element by element, both views of the same shape
inline void copy_view(aclTensor* dst, const aclTensor* src, const std::vector<int64_t>& src_strides) {
    size_t es = dst->ElementSize();
    uint8_t* db = Access::base(dst);
    const uint8_t* sb = Access::base(src);
    if (src->dtype == dst->dtype) {
        for_each_index(dst->view_shape, dst->strides, dst->offset, src_strides, src->offset,
                       [&](int64_t d, int64_t s) { std::memcpy(db + d * es, sb + s * es, es); });
        return;
    }
    size_t ss = src->ElementSize();
    for_each_index(dst->view_shape, dst->strides, dst->offset, src_strides, src->offset,
                   [&](int64_t d, int64_t s) { store(dst->dtype, db + d * es, load(src->dtype, sb + s * ss)); });
}

inline HostArg launch_tensor(const aclTensor* t) {
    HostArg a;
    a.kind = HostArg::TENSOR;
    a.data = Access::data(t);
    a.nbytes = size_t(t->Numel()) * t->ElementSize();
    a.dtype = int(t->dtype);
    for (size_t k = 0; k < t->view_shape.GetDimNum(); ++k) a.shape.push_back(t->view_shape.GetDim(k));
    return a;
}
inline HostArg launch_slot(const Slot& s) {
    if (s.t) return launch_tensor(s.t);
    HostArg a;
    if (!s.list) return a;
    a.kind = HostArg::TENSOR_LIST;
    for (const aclTensor* t : s.list->t) a.list.push_back(launch_tensor(t));
    return a;
}

// ADD_TO_LAUNCHER_LIST_AICORE: the op must be one this build registers (its OpDef); the launch then goes the way of
// the generated aclnn API (tiling, kernel, GM model), with the arguments in its order: inputs, attributes, outputs.
struct Launch {
    std::string op;
    Inputs in;
    Outputs out;
    Attrs at;
    OutShape shape;
    void add(Inputs v) { in = std::move(v); }
    void add(Outputs v) { out = std::move(v); }
    void add(Attrs v) { at = std::move(v); }
    void add(OutShape v) { shape = v; }
    void add(Ignored) {}
};
template <class... P> inline aclnnStatus add_launch(aclOpExecutor* executor, const char* op, P&&... parts) {
    if (!executor) return ACLNN_ERR_INNER_NULLPTR;
    if (!host_registry().opdefs.count(op))
        throw std::runtime_error(std::string("[ascsim] ADD_TO_LAUNCHER_LIST_AICORE(") + op + "): not an op of this build (no OpDef "
                                 "registers it): the toolkit's built-in kernels are not simulated (ACL error 561003)");
    auto L = std::make_shared<Launch>();
    L->op = op;
    (L->add(std::forward<P>(parts)), ...);
    executor->steps.push_back([L] {
        std::vector<HostArg> args;
        for (const Slot& s : L->in.v) args.push_back(launch_slot(s));
        for (const HostArg& a : L->at.v) args.push_back(a);
        for (const Slot& s : L->out.v) args.push_back(launch_slot(s));
        std::vector<uint64_t> shapes;
        exec_npu_cmd(("aclnn" + L->op).c_str(), args, &shapes);
        if (!L->shape.tensor || shapes.empty()) return;
        auto* st = const_cast<aclTensor*>(L->shape.tensor);
        std::memcpy(Access::data(st), shapes.data(), std::min(shapes.size() * 8, size_t(st->Numel()) * st->ElementSize()));
        size_t idx = size_t(L->shape.index);
        if (idx < L->out.v.size() && L->out.v[idx].t && shapes[0] <= 8) {
            gert::Shape s;
            for (uint64_t k = 0; k < shapes[0]; ++k) s.AppendDim(int64_t(shapes[1 + k]));
            const_cast<aclTensor*>(L->out.v[idx].t)->SetViewShape(s);
        }
    });
    return ACLNN_SUCCESS;
}

class UniqueExecutor {
public:
    UniqueExecutor() : e_(new aclOpExecutor) {}
    aclOpExecutor* get() const { return e_.get(); }
    aclOpExecutor* operator->() const { return e_.get(); }
    void ReleaseTo(aclOpExecutor** out) { if (out) *out = e_.release(); }

private:
    std::unique_ptr<aclOpExecutor> e_;
};
}  // namespace opapi
}  // namespace ascsim

inline aclTensor* aclOpExecutor::ConvertToTensor(const aclScalar* s, op::DataType dt) {
    aclTensor* t = AllocTensor(op::Shape{1}, dt);
    ascsim::opapi::Value v;
    v.is_int = !s->is_float;
    v.i = s->i;
    v.f = s->ToDouble();
    ascsim::opapi::store(dt, ascsim::opapi::Access::base(t), v);
    return t;
}
inline aclTensor* aclOpExecutor::ConvertToTensor(const aclIntArray* a, op::DataType dt) {
    return ConvertToTensor(a->v.data(), a->v.size(), dt);
}
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int>>
inline aclTensor* aclOpExecutor::ConvertToTensor(const T* v, uint64_t n, op::DataType dt) {
    aclTensor* t = AllocTensor(op::Shape{int64_t(n)}, dt);
    for (uint64_t k = 0; k < n; ++k) {
        ascsim::opapi::Value x;
        x.is_int = std::is_integral_v<T>;
        x.i = x.is_int ? int64_t(v[k]) : 0;
        x.f = double(v[k]);
        ascsim::opapi::store(dt, ascsim::opapi::Access::base(t) + k * t->ElementSize(), x);
    }
    return t;
}

// op_error_check.h's shape check of a reduction's result against the caller's out tensor: equal shapes, or one
// element each
inline bool CheckReduceOutShape(const aclTensor* inferred, const aclTensor* out) {
    if (inferred->GetViewShape() == out->GetViewShape()) return true;
    if (inferred->Numel() == 1 && out->Numel() == 1) return true;
    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "out shape %s differs from the inferred %s", op::ToString(out->GetViewShape()).GetString(),
            op::ToString(inferred->GetViewShape()).GetString());
    return false;
}

inline aclnnStatus CommonOpExecutorRun(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    (void)workspace, (void)workspaceSize, (void)stream;
    if (!executor) return ACLNN_ERR_PARAM_NULLPTR;
    std::unique_ptr<aclOpExecutor> own(executor);
    for (auto& step : own->steps) step();
    return ACLNN_SUCCESS;
}

// the toolkit's data-movement l0 ops, recorded in phase 1 and run in phase 2
namespace l0op {
inline const aclTensor* Contiguous(const aclTensor* x, aclOpExecutor* executor) {
    if (!x || !executor) return nullptr;
    if (x->IsContiguous() || x->IsEmpty()) return x;
    aclTensor* y = executor->AllocTensor(x->view_shape, x->dtype, x->view_format);
    executor->steps.push_back([x, y] { ascsim::opapi::copy_view(y, x, x->strides); });
    return y;
}
inline const aclTensor* ViewCopy(const aclTensor* x, const aclTensor* y, aclOpExecutor* executor) {
    if (!x || !y || !executor) return nullptr;
    if (x->Numel() != y->Numel()) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "ViewCopy: %lld elements into a view of %lld", (long long)x->Numel(), (long long)y->Numel());
        return nullptr;
    }
    auto* dst = const_cast<aclTensor*>(y);
    executor->steps.push_back([x, dst] {
        // same element count, possibly another shape (a reshaped result): read x in dst's shape, row-major
        aclTensor src = *x;
        if (!(x->view_shape == dst->view_shape)) src.view_shape = dst->view_shape, src.strides = aclTensor::ContiguousStrides(dst->view_shape);
        ascsim::opapi::copy_view(dst, &src, src.strides);
    });
    return y;
}
inline const aclTensor* Cast(const aclTensor* x, op::DataType dt, aclOpExecutor* executor) {
    if (!x || !executor) return nullptr;
    if (x->dtype == dt) return x;
    aclTensor* y = executor->AllocTensor(x->view_shape, dt, x->view_format);
    executor->steps.push_back([x, y] { ascsim::opapi::copy_view(y, x, x->strides); });
    return y;
}
inline const aclTensor* Reshape(const aclTensor* x, const op::Shape& shape, aclOpExecutor* executor) {
    if (!x || !executor) return nullptr;
    op::Shape s = shape;
    int64_t known = 1, infer = -1;
    for (size_t k = 0; k < s.GetDimNum(); ++k) {
        if (s.GetDim(k) == -1) infer = int64_t(k); else known *= s.GetDim(k);
    }
    if (infer >= 0 && known > 0) s.SetDim(size_t(infer), x->Numel() / known);
    if (s.GetShapeSize() != x->Numel()) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "Reshape: %s to %s changes the element count", op::ToString(x->view_shape).GetString(),
                op::ToString(s).GetString());
        return nullptr;
    }
    const aclTensor* c = Contiguous(x, executor);
    aclTensor* y = executor->View(c);
    y->view_shape = y->origin_shape = y->storage_shape = s;
    y->strides = aclTensor::ContiguousStrides(s);
    return y;
}
inline const aclTensor* Reshape(const aclTensor* x, const aclIntArray* shape, aclOpExecutor* executor) {
    if (!shape) return nullptr;
    op::Shape s;
    op::ToShape(shape->v.data(), shape->v.size(), s);
    return Reshape(x, s, executor);
}
inline const aclTensor* Transpose(const aclTensor* x, const aclIntArray* perm, aclOpExecutor* executor) {
    if (!x || !perm || !executor || perm->Size() != x->view_shape.GetDimNum()) return nullptr;
    op::Shape s;
    std::vector<int64_t> src_strides;
    for (uint64_t k = 0; k < perm->Size(); ++k) {
        int64_t p = (*perm)[k] < 0 ? (*perm)[k] + int64_t(perm->Size()) : (*perm)[k];
        if (p < 0 || p >= int64_t(perm->Size())) return nullptr;
        s.AppendDim(x->view_shape.GetDim(size_t(p)));
        src_strides.push_back(x->strides[size_t(p)]);
    }
    aclTensor* y = executor->AllocTensor(s, x->dtype, x->view_format);
    executor->steps.push_back([x, y, src_strides] { ascsim::opapi::copy_view(y, x, src_strides); });
    return y;
}
inline const aclTensor* BroadcastTo(const aclTensor* x, const aclIntArray* shape, aclOpExecutor* executor) {
    if (!x || !shape || !executor) return nullptr;
    op::Shape target, check;
    op::ToShape(shape->v.data(), shape->v.size(), target);
    if (!op::BroadcastInferShape(x->view_shape, target, check) || !(check == target)) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "BroadcastTo: %s cannot broadcast to %s", op::ToString(x->view_shape).GetString(),
                op::ToString(target).GetString());
        return nullptr;
    }
    size_t n = target.GetDimNum(), lead = n - x->view_shape.GetDimNum();
    std::vector<int64_t> src_strides(n, 0);
    for (size_t k = lead; k < n; ++k) src_strides[k] = x->view_shape.GetDim(k - lead) == 1 ? 0 : x->strides[k - lead];
    aclTensor* y = executor->AllocTensor(target, x->dtype, x->view_format);
    executor->steps.push_back([x, y, src_strides] { ascsim::opapi::copy_view(y, x, src_strides); });
    return y;
}
}  // namespace l0op

// ---- macros of the opdev headers ------------------------------------------------------------------------------
#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif
#define CREATE_EXECUTOR() ::ascsim::opapi::UniqueExecutor()
#define ADD_TO_LAUNCHER_LIST_AICORE(type, ...) ::ascsim::opapi::add_launch(executor, #type, ##__VA_ARGS__)
#define OP_INPUT(...) ::ascsim::opapi::inputs(__VA_ARGS__)
#define OP_OUTPUT(...) ::ascsim::opapi::outputs(__VA_ARGS__)
#define OP_ATTR(...) ::ascsim::opapi::attrs(__VA_ARGS__)
#define OP_OUTSHAPE(...) ::ascsim::opapi::OutShape __VA_ARGS__
#define OP_WORKSPACE(...) ::ascsim::opapi::Ignored{}
#define OP_OPTION(...) ::ascsim::opapi::Ignored{}
#define OP_MODE(...) ::ascsim::opapi::Ignored{}
#define OP_EMPTY_ARG ::ascsim::opapi::Ignored{}
#define OP_TYPE_REGISTER(type) [[maybe_unused]] static constexpr const char kAscsimOpType_##type[] = #type
// DFX (profiling / dump) hooks: nothing to record on the simulator
#define L2_DFX_PHASE_1(...) ;
#define L2_DFX_PHASE_2(...) ;
#define L0_DFX(...) ;
#define DFX_IN(...) 0
#define DFX_OUT(...) 0

#ifndef CHECK_RET
#define CHECK_RET(cond, ret) \
    do {                     \
        if (!(cond)) {       \
            return ret;      \
        }                    \
    } while (0)
#endif
// One shape for every check below; internal, so that a build's own OP_CHECK (the macro is guarded) cannot change them.
#define ASCSIM_OP_CHECK(cond, log, ...) \
    do {                                \
        if (!(cond)) {                  \
            log;                        \
            __VA_ARGS__;                \
        }                               \
    } while (0)
#ifndef OP_CHECK
#define OP_CHECK(cond, log, ...) ASCSIM_OP_CHECK(cond, log, ##__VA_ARGS__)
#endif
#define OP_CHECK_NULL(param, ...) \
    ASCSIM_OP_CHECK((param) != nullptr, OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "expected %s not to be null", #param), ##__VA_ARGS__)
#define OP_CHECK_DTYPE_NOT_SUPPORT(tensor, list, ...)                                                                  \
    ASCSIM_OP_CHECK(::op::CheckType((tensor)->GetDataType(), list),                                                    \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s dtype %d is not supported", #tensor, int((tensor)->GetDataType())), \
                    ##__VA_ARGS__)
#define OP_CHECK_DTYPE_NOT_MATCH(tensor, dt, ...)                                                                     \
    ASCSIM_OP_CHECK((tensor)->GetDataType() == (dt),                                                                  \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s dtype %d should be %d", #tensor, int((tensor)->GetDataType()), int(dt)), \
                    ##__VA_ARGS__)
#define OP_CHECK_DTYPE_NOT_SAME(a, b, ...)                                                                             \
    ASCSIM_OP_CHECK((a)->GetDataType() == (b)->GetDataType(),                                                          \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s and %s must have the same dtype", #a, #b), ##__VA_ARGS__)
#define OP_CHECK_MAX_DIM(tensor, n, ...)                                                                              \
    ASCSIM_OP_CHECK((tensor)->GetViewShape().GetDimNum() <= size_t(n),                                                \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has more than %d dimensions", #tensor, int(n)), ##__VA_ARGS__)
#define OP_CHECK_MIN_DIM(tensor, n, ...)                                                                              \
    ASCSIM_OP_CHECK((tensor)->GetViewShape().GetDimNum() >= size_t(n),                                                \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has fewer than %d dimensions", #tensor, int(n)), ##__VA_ARGS__)
#define OP_CHECK_WRONG_DIMENSION(tensor, n, ...)                                                                      \
    ASCSIM_OP_CHECK((tensor)->GetViewShape().GetDimNum() == size_t(n),                                                \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s must have %d dimensions", #tensor, int(n)), ##__VA_ARGS__)
#define OP_CHECK_SHAPE_NOT_EQUAL(a, b, ...)                                                                           \
    ASCSIM_OP_CHECK((a)->GetViewShape() == (b)->GetViewShape(),                                                       \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s and %s must have the same shape", #a, #b), ##__VA_ARGS__)
#define OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE(tensor, shape, ...)                                               \
    ASCSIM_OP_CHECK((tensor)->GetViewShape() == (shape),                                                              \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s shape %s should be %s", #tensor,                             \
                            ::op::ToString((tensor)->GetViewShape()).GetString(), ::op::ToString(shape).GetString()), \
                    ##__VA_ARGS__)
#define OP_CHECK_BROADCAST(a, b, ...)                                                                                 \
    ASCSIM_OP_CHECK(::op::CheckBroadcastShape((a)->GetViewShape(), (b)->GetViewShape()),                              \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s and %s cannot broadcast", #a, #b), ##__VA_ARGS__)
#define OP_CHECK_BROADCAST_WITH_SHAPE(tensor, shape, ...)                                                             \
    ASCSIM_OP_CHECK(::op::CheckBroadcastShape((tensor)->GetViewShape(), shape),                                       \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s cannot broadcast to %s", #tensor, ::op::ToString(shape).GetString()), \
                    ##__VA_ARGS__)
#define OP_CHECK_BROADCAST_AND_INFER_SHAPE(a, b, out, ...)                                                            \
    ASCSIM_OP_CHECK(::op::BroadcastInferShape((a)->GetViewShape(), (b)->GetViewShape(), out),                         \
                    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s and %s cannot broadcast", #a, #b), ##__VA_ARGS__)
#define OP_CHECK_COMM_INPUT(workspaceSize, executor)                                                      \
    do {                                                                                                  \
        if ((workspaceSize) == nullptr || (executor) == nullptr) {                                        \
            OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "workspaceSize and executor must not be null");              \
            return ACLNN_ERR_PARAM_NULLPTR;                                                               \
        }                                                                                                 \
    } while (0)
#endif  // ASCSIM_HOST_OPAPI_H_
