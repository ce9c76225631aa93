// ascsim: CPU stand-in for torch_npu's pytorch_npu_helper.hpp. EXEC_NPU_CMD(aclnnOp, args...) converts the
// arguments (tensors, optional tensors, tensor lists, scalars, attrs) and runs the op in the simulator.
#ifndef ASCSIM_PYTORCH_NPU_HELPER_HPP_
#define ASCSIM_PYTORCH_NPU_HELPER_HPP_
#include <torch/extension.h>
#include <string>
#include <vector>
#include "ascsim/bridge.h"

namespace ascsim_torch {

inline int ge_dtype(at::ScalarType t) {
    switch (t) {
        case at::kFloat: return 0;
        case at::kHalf: return 1;
        case at::kChar: return 2;
        case at::kInt: return 3;
        case at::kByte: return 4;
        case at::kShort: return 6;
        case at::kLong: return 9;
        case at::kDouble: return 11;
        case at::kBool: return 12;
        case at::kComplexFloat: return 16;
        case at::kComplexDouble: return 17;
        case at::kBFloat16: return 27;
        default: return 28;
    }
}

struct Pending {   // non-contiguous tensors are run on a contiguous copy and written back afterwards
    at::Tensor original, work;
};

inline ascsim::HostArg tensor_arg(const at::Tensor& t, std::vector<Pending>& pend) {
    ascsim::HostArg a;
    if (!t.defined()) return a;
    at::Tensor w = t;
    if (!t.is_contiguous() || t.device().type() != at::kCPU) {
        w = t.to(at::kCPU).contiguous();
        pend.push_back({t, w});
    }
    a.kind = ascsim::HostArg::TENSOR;
    a.data = w.data_ptr();
    a.nbytes = size_t(w.numel()) * w.element_size();
    a.dtype = ge_dtype(w.scalar_type());
    for (int64_t d : w.sizes()) a.shape.push_back(d);
    return a;
}
struct AclScalar {
    double f = 0;
    int64_t i = 0;
    bool is_float = false;
    int dtype = 0;
};
inline ascsim::HostArg to_arg(const at::Tensor& t, std::vector<Pending>& p) { return tensor_arg(t, p); }
inline ascsim::HostArg to_arg(const c10::optional<at::Tensor>& t, std::vector<Pending>& p) {
    return t.has_value() ? tensor_arg(*t, p) : ascsim::HostArg{};
}
inline ascsim::HostArg to_arg(at::TensorList ts, std::vector<Pending>& p) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::TENSOR_LIST;
    for (const auto& t : ts) a.list.push_back(tensor_arg(t, p));
    return a;
}
inline ascsim::HostArg to_arg(const std::vector<at::Tensor>& ts, std::vector<Pending>& p) { return to_arg(at::TensorList(ts), p); }
inline ascsim::HostArg to_arg(const at::Scalar& s, std::vector<Pending>&) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::SCALAR;
    a.scalar_is_float = s.isFloatingPoint();
    if (a.scalar_is_float) a.f = s.toDouble(); else a.i = s.toLong(), a.f = double(a.i);
    a.dtype = ge_dtype(s.type());
    return a;
}
inline ascsim::HostArg to_arg(const AclScalar* s, std::vector<Pending>&) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::SCALAR;
    a.scalar_is_float = s->is_float;
    a.f = s->f;
    a.i = s->i;
    a.dtype = s->dtype;
    return a;
}
inline ascsim::HostArg to_arg(AclScalar* s, std::vector<Pending>& p) { return to_arg(static_cast<const AclScalar*>(s), p); }
inline ascsim::HostArg to_arg(double v, std::vector<Pending>&) { ascsim::HostArg a; a.kind = ascsim::HostArg::FLOAT; a.f = v; return a; }
inline ascsim::HostArg to_arg(float v, std::vector<Pending>&) { ascsim::HostArg a; a.kind = ascsim::HostArg::FLOAT; a.f = v; return a; }
inline ascsim::HostArg to_arg(bool v, std::vector<Pending>&) { ascsim::HostArg a; a.kind = ascsim::HostArg::BOOL; a.b = v; return a; }
template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
inline ascsim::HostArg to_arg(I v, std::vector<Pending>&) { ascsim::HostArg a; a.kind = ascsim::HostArg::INT; a.i = int64_t(v); return a; }
inline ascsim::HostArg to_arg(const char* v, std::vector<Pending>&) { ascsim::HostArg a; a.kind = ascsim::HostArg::STR; a.s = v ? v : ""; return a; }
inline ascsim::HostArg to_arg(const std::string& v, std::vector<Pending>&) { ascsim::HostArg a; a.kind = ascsim::HostArg::STR; a.s = v; return a; }
inline ascsim::HostArg to_arg(at::IntArrayRef v, std::vector<Pending>&) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::INT_LIST;
    a.li.assign(v.begin(), v.end());
    return a;
}
inline ascsim::HostArg to_arg(const std::vector<int64_t>& v, std::vector<Pending>& p) { return to_arg(at::IntArrayRef(v), p); }
inline ascsim::HostArg to_arg(at::ArrayRef<double> v, std::vector<Pending>&) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::FLOAT_LIST;
    a.lf.assign(v.begin(), v.end());
    return a;
}
inline ascsim::HostArg to_arg(const std::vector<double>& v, std::vector<Pending>& p) { return to_arg(at::ArrayRef<double>(v), p); }
inline ascsim::HostArg to_arg(const std::vector<float>& v, std::vector<Pending>&) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::FLOAT_LIST;
    a.lf.assign(v.begin(), v.end());
    return a;
}

// aclIntArray / aclFloatArray / aclBoolArray as ConvertType makes them; EXEC_NPU_CMD passes them as list attributes
// or, for a tensor input, as a 1-D tensor of the input's dtype.
struct AclIntArray { std::vector<int64_t> v; };
struct AclFloatArray { std::vector<double> v; };
struct AclBoolArray { std::vector<int64_t> v; };
template <class T> inline T* keep_alive(T&& x) {   // owned here: the aclnn call borrows it, nothing frees it
    static thread_local std::vector<std::unique_ptr<T>> keep;
    keep.push_back(std::make_unique<T>(std::move(x)));
    if (keep.size() > 256) keep.erase(keep.begin());
    return keep.back().get();
}
inline ascsim::HostArg to_arg(const AclIntArray* a, std::vector<Pending>&) {
    ascsim::HostArg r;
    if (!a) return r;
    r.kind = ascsim::HostArg::INT_LIST;
    r.li = a->v;
    return r;
}
inline ascsim::HostArg to_arg(const AclFloatArray* a, std::vector<Pending>&) {
    ascsim::HostArg r;
    if (!a) return r;
    r.kind = ascsim::HostArg::FLOAT_LIST;
    r.lf = a->v;
    return r;
}
inline ascsim::HostArg to_arg(const AclBoolArray* a, std::vector<Pending>&) {
    ascsim::HostArg r;
    if (!a) return r;
    r.kind = ascsim::HostArg::BOOL_LIST;
    r.li = a->v;
    return r;
}
inline ascsim::HostArg to_arg(AclIntArray* a, std::vector<Pending>& p) { return to_arg(static_cast<const AclIntArray*>(a), p); }
inline ascsim::HostArg to_arg(AclFloatArray* a, std::vector<Pending>& p) { return to_arg(static_cast<const AclFloatArray*>(a), p); }
inline ascsim::HostArg to_arg(AclBoolArray* a, std::vector<Pending>& p) { return to_arg(static_cast<const AclBoolArray*>(a), p); }
inline ascsim::HostArg to_arg(at::ArrayRef<bool> v, std::vector<Pending>&) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::BOOL_LIST;
    for (bool b : v) a.li.push_back(b);
    return a;
}
// aclScalarList: c10::ArrayRef<c10::Scalar> / std::vector<c10::Scalar>
inline ascsim::HostArg to_arg(at::ArrayRef<at::Scalar> v, std::vector<Pending>& p) {
    ascsim::HostArg a;
    a.kind = ascsim::HostArg::SCALAR_LIST;
    for (const at::Scalar& s : v) a.list.push_back(to_arg(s, p));
    return a;
}
inline ascsim::HostArg to_arg(const std::vector<at::Scalar>& v, std::vector<Pending>& p) { return to_arg(at::ArrayRef<at::Scalar>(v), p); }
inline ascsim::HostArg to_arg(const c10::optional<at::Scalar>& s, std::vector<Pending>& p) {
    return s.has_value() ? to_arg(*s, p) : ascsim::HostArg{};
}
inline ascsim::HostArg to_arg(const c10::optional<at::IntArrayRef>& v, std::vector<Pending>& p) {
    return v.has_value() ? to_arg(*v, p) : ascsim::HostArg{};
}
inline ascsim::HostArg to_arg(std::nullptr_t, std::vector<Pending>&) { return ascsim::HostArg{}; }   // an absent optional

template <class... Args> inline void exec(const char* api, const Args&... args) {
    std::vector<Pending> pend;
    std::vector<ascsim::HostArg> v;
    v.reserve(sizeof...(Args));
    (v.push_back(to_arg(args, pend)), ...);
    ascsim::exec_npu_cmd(api, v);
    for (auto& p : pend) p.original.copy_(p.work);
}
}  // namespace ascsim_torch

using aclScalar = ascsim_torch::AclScalar;
inline aclScalar* ConvertTensorToAclScaler(const at::Tensor& t) {
    static thread_local std::vector<std::unique_ptr<aclScalar>> keep;
    auto s = std::make_unique<aclScalar>();
    at::Tensor c = t.to(at::kCPU);
    s->is_float = c.is_floating_point();
    s->f = c.to(at::kDouble).item<double>();
    s->i = s->is_float ? int64_t(s->f) : c.to(at::kLong).item<int64_t>();
    s->dtype = ascsim_torch::ge_dtype(c.scalar_type());
    keep.push_back(std::move(s));
    if (keep.size() > 64) keep.erase(keep.begin());
    return keep.back().get();
}
inline aclScalar* ConvertTensorToAclScalar(const at::Tensor& t) { return ConvertTensorToAclScaler(t); }

using aclIntArray = ascsim_torch::AclIntArray;
using aclFloatArray = ascsim_torch::AclFloatArray;
using aclBoolArray = ascsim_torch::AclBoolArray;
// torch_npu's ConvertType for the argument kinds a binding converts by hand before EXEC_NPU_CMD
inline aclIntArray* ConvertType(at::IntArrayRef v) { return ascsim_torch::keep_alive(aclIntArray{std::vector<int64_t>(v.begin(), v.end())}); }
inline aclIntArray* ConvertType(const std::vector<int64_t>& v) { return ConvertType(at::IntArrayRef(v)); }
inline aclFloatArray* ConvertType(at::ArrayRef<double> v) { return ascsim_torch::keep_alive(aclFloatArray{std::vector<double>(v.begin(), v.end())}); }
inline aclFloatArray* ConvertType(const std::vector<double>& v) { return ConvertType(at::ArrayRef<double>(v)); }
inline aclFloatArray* ConvertType(at::ArrayRef<float> v) { return ascsim_torch::keep_alive(aclFloatArray{std::vector<double>(v.begin(), v.end())}); }
inline aclBoolArray* ConvertType(at::ArrayRef<bool> v) {
    aclBoolArray a;
    for (bool b : v) a.v.push_back(b);
    return ascsim_torch::keep_alive(std::move(a));
}
inline aclScalar* ConvertType(const at::Scalar& s) {
    aclScalar a;
    a.is_float = s.isFloatingPoint();
    a.f = s.toDouble();
    a.i = a.is_float ? int64_t(a.f) : s.toLong();
    a.dtype = ascsim_torch::ge_dtype(s.type());
    return ascsim_torch::keep_alive(std::move(a));
}
inline const at::Tensor& ConvertType(const at::Tensor& t) { return t; }   // tensors pass through EXEC_NPU_CMD as they are

#define EXEC_NPU_CMD(aclnn_api, ...) ::ascsim_torch::exec(#aclnn_api, __VA_ARGS__)
#endif  // ASCSIM_PYTORCH_NPU_HELPER_HPP_
