// ascsim: CPU stand-in for torch_npu's pytorch_npu_helper.hpp. EXEC_NPU_CMD(aclnnOp, args...) converts the
// arguments (tensors, optional tensors, tensor lists, scalars, attrs) and runs the op in the simulator.
#ifndef ASCSIM_PYTORCH_NPU_HELPER_HPP_
#define ASCSIM_PYTORCH_NPU_HELPER_HPP_
#include <dlfcn.h>
#include <torch/extension.h>
#include <string>
#include <unordered_map>
#include <vector>
#include "ascsim/bridge.h"
#include "ascsim/host/acl_types.h"
#include "acl/acl.h"

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
using AclScalar = ::aclScalar;
// torch_npu's at::Scalar -> aclScalar; dtype is the scalar's own, or the tensor's it came from
inline aclScalar acl_scalar(const at::Scalar& s, int dtype) {
    aclScalar a;
    a.is_float = s.isFloatingPoint();
    a.f = s.toDouble();
    a.i = a.is_float ? int64_t(a.f) : s.toLong();
    a.dtype = dtype;
    return a;
}
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
using AclIntArray = ::aclIntArray;
using AclFloatArray = ::aclFloatArray;
using AclBoolArray = ::aclBoolArray;
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

// ---- an L2 entry of the build's own (hand-written aclnn host code): torch_npu's conversions, then its two phases
struct L2Keep : ascsim::AclArena {   // what the converted arguments point to, alive for the call
    std::vector<std::string> strs;
    std::vector<Pending> pend;
    int64_t elements = 0;   // of all tensor arguments
};
inline aclTensor* l2_arg(const at::Tensor& t, L2Keep& k) {
    if (!t.defined()) return nullptr;
    k.elements += t.numel();
    ascsim::HostArg a = tensor_arg(t, k.pend);   // contiguous host memory, written back afterwards when it is a copy
    std::vector<int64_t> storage = {int64_t(a.nbytes / std::max<int64_t>(t.element_size(), 1))};
    return k.adopt(aclCreateTensor(a.shape.data(), a.shape.size(), aclDataType(a.dtype), nullptr, 0, ACL_FORMAT_ND,
                                   storage.data(), 1, a.data));
}
inline aclTensor* l2_arg(const c10::optional<at::Tensor>& t, L2Keep& k) { return t.has_value() ? l2_arg(*t, k) : nullptr; }
inline aclTensorList* l2_arg(at::TensorList ts, L2Keep& k) {
    aclTensorList* l = k.make<aclTensorList>();
    for (const auto& t : ts) l->t.push_back(l2_arg(t, k));
    return l;
}
inline aclTensorList* l2_arg(const std::vector<at::Tensor>& ts, L2Keep& k) { return l2_arg(at::TensorList(ts), k); }
inline aclScalar* l2_arg(const at::Scalar& s, L2Keep& k) { return k.make<aclScalar>(acl_scalar(s, ge_dtype(s.type()))); }
inline aclScalar* l2_arg(const c10::optional<at::Scalar>& s, L2Keep& k) { return s.has_value() ? l2_arg(*s, k) : nullptr; }
inline aclScalarList* l2_arg(at::ArrayRef<at::Scalar> v, L2Keep& k) {
    aclScalarList* l = k.make<aclScalarList>();
    for (const at::Scalar& s : v) l->s.push_back(l2_arg(s, k));
    return l;
}
inline aclScalarList* l2_arg(const std::vector<at::Scalar>& v, L2Keep& k) { return l2_arg(at::ArrayRef<at::Scalar>(v), k); }
inline const aclScalar* l2_arg(const aclScalar* s, L2Keep&) { return s; }
inline const aclIntArray* l2_arg(const aclIntArray* a, L2Keep&) { return a; }
inline const aclFloatArray* l2_arg(const aclFloatArray* a, L2Keep&) { return a; }
inline const aclBoolArray* l2_arg(const aclBoolArray* a, L2Keep&) { return a; }
inline aclIntArray* l2_arg(at::IntArrayRef v, L2Keep& k) {
    aclIntArray* a = k.make<aclIntArray>();
    a->v.assign(v.begin(), v.end());
    return a;
}
inline aclIntArray* l2_arg(const std::vector<int64_t>& v, L2Keep& k) { return l2_arg(at::IntArrayRef(v), k); }
inline aclIntArray* l2_arg(const c10::optional<at::IntArrayRef>& v, L2Keep& k) { return v.has_value() ? l2_arg(*v, k) : nullptr; }
inline aclFloatArray* l2_arg(at::ArrayRef<double> v, L2Keep& k) {
    aclFloatArray* a = k.make<aclFloatArray>();
    a->v.assign(v.begin(), v.end());
    return a;
}
inline aclFloatArray* l2_arg(const std::vector<double>& v, L2Keep& k) { return l2_arg(at::ArrayRef<double>(v), k); }
inline aclFloatArray* l2_arg(const std::vector<float>& v, L2Keep& k) {
    aclFloatArray* a = k.make<aclFloatArray>();
    a->v.assign(v.begin(), v.end());
    return a;
}
inline aclBoolArray* l2_arg(at::ArrayRef<bool> v, L2Keep& k) {
    aclBoolArray* a = k.make<aclBoolArray>();
    for (bool b : v) a->v.push_back(b);
    return a;
}
inline double l2_arg(double v, L2Keep&) { return v; }
inline float l2_arg(float v, L2Keep&) { return v; }
inline bool l2_arg(bool v, L2Keep&) { return v; }
template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
inline int64_t l2_arg(I v, L2Keep&) { return int64_t(v); }
inline const char* l2_arg(const char* v, L2Keep&) { return v; }
inline const char* l2_arg(const std::string& v, L2Keep& k) { k.strs.push_back(v); return k.strs.back().c_str(); }
inline const aclTensor* l2_arg(std::nullptr_t, L2Keep&) { return nullptr; }

// An L2 entry (aclnnXxxGetWorkspaceSize / aclnnXxx) defined by the candidate's own host code, looked up as torch_npu
// does (by name, in the loaded module), nullptr when the build has none: the API is then the one generated from the
// OpDef. Internal linkage: the address names the module this header was compiled into.
[[maybe_unused]] static void* own_l2_symbol(const char* name) {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&own_l2_symbol), &info) && info.dli_fname) {
        if (void* self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
            void* sym = dlsym(self, name);
            dlclose(self);
            if (sym) return sym;
        }
    }
    return dlsym(RTLD_DEFAULT, name);
}
struct OwnL2 {
    void* phase1 = nullptr;   // aclnnXxxGetWorkspaceSize
    void* phase2 = nullptr;   // aclnnXxx
};
// Looked up once per API: a perf loop calls EXEC_NPU_CMD many times.
[[maybe_unused]] static const OwnL2& own_l2(const char* api) {
    static thread_local std::unordered_map<std::string, OwnL2> found;
    auto it = found.find(api);
    if (it == found.end()) {
        OwnL2 e{own_l2_symbol((std::string(api) + "GetWorkspaceSize").c_str()), own_l2_symbol(api)};
        it = found.emplace(api, e).first;
    }
    return it->second;
}

// Runs api through the build's own aclnnXxxGetWorkspaceSize / aclnnXxx when its host code defines them (torch_npu
// finds them the same way, by name); false when it does not: the API is then the one generated from the OpDef.
// The entry must launch one of the build's own kernels: the toolkit's data-movement l0 ops (Cast, Transpose, ...)
// run on the host here, and a candidate whose L2 computed a result with them alone would pass without a kernel. Only
// a call on empty tensors, where there is nothing to compute, may launch none.
template <class... Args> static bool exec_own_l2(const char* api, const Args&... args) {
    const OwnL2& l2 = own_l2(api);
    if (!l2.phase1 || !l2.phase2) return false;
    L2Keep keep;
    keep.strs.reserve(sizeof...(Args));   // c_str() pointers must survive later conversions
    const uint64_t launches = ascsim::kernel_launches();
    auto call = [&](auto... converted) {
        using Phase1 = aclnnStatus (*)(decltype(converted)..., uint64_t*, aclOpExecutor**);
        using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);
        uint64_t ws = 0;
        aclOpExecutor* executor = nullptr;
        aclnnStatus st = reinterpret_cast<Phase1>(l2.phase1)(converted..., &ws, &executor);
        if (st != ACLNN_SUCCESS)
            throw std::runtime_error(std::string("[ascsim] ") + api + "GetWorkspaceSize failed: aclnn status " + std::to_string(st));
        std::vector<uint8_t> workspace(ws);
        st = reinterpret_cast<Phase2>(l2.phase2)(workspace.data(), ws, executor, nullptr);
        if (st != ACLNN_SUCCESS) throw std::runtime_error(std::string("[ascsim] ") + api + " failed: aclnn status " + std::to_string(st));
    };
    call(l2_arg(args, keep)...);
    if (ascsim::kernel_launches() == launches && keep.elements > 0)
        throw std::runtime_error(std::string("[ascsim] ") + api + ": the build's own aclnn entry launched none of the "
                                 "build's kernels (ADD_TO_LAUNCHER_LIST_AICORE); a result made by the toolkit's l0 ops "
                                 "alone is not the candidate's kernel");
    for (auto& p : keep.pend) p.original.copy_(p.work);
    return true;
}

template <class... Args> static void exec(const char* api, const Args&... args) {
    if (exec_own_l2(api, args...)) return;
    std::vector<Pending> pend;
    std::vector<ascsim::HostArg> v;
    v.reserve(sizeof...(Args));
    (v.push_back(to_arg(args, pend)), ...);
    ascsim::exec_npu_cmd(api, v);
    for (auto& p : pend) p.original.copy_(p.work);
}
}  // namespace ascsim_torch

inline aclScalar* ConvertTensorToAclScaler(const at::Tensor& t) {
    at::Tensor c = t.to(at::kCPU);
    return ascsim_torch::keep_alive(ascsim_torch::acl_scalar(c.item(), ascsim_torch::ge_dtype(c.scalar_type())));
}
inline aclScalar* ConvertTensorToAclScalar(const at::Tensor& t) { return ConvertTensorToAclScaler(t); }

// torch_npu's ConvertType for the argument kinds a binding converts by hand before EXEC_NPU_CMD
inline aclIntArray* ConvertType(at::IntArrayRef v) {
    aclIntArray a;
    a.v.assign(v.begin(), v.end());
    return ascsim_torch::keep_alive(std::move(a));
}
inline aclIntArray* ConvertType(const std::vector<int64_t>& v) { return ConvertType(at::IntArrayRef(v)); }
inline aclFloatArray* ConvertType(at::ArrayRef<double> v) {
    aclFloatArray a;
    a.v.assign(v.begin(), v.end());
    return ascsim_torch::keep_alive(std::move(a));
}
inline aclFloatArray* ConvertType(const std::vector<double>& v) { return ConvertType(at::ArrayRef<double>(v)); }
inline aclFloatArray* ConvertType(at::ArrayRef<float> v) {
    aclFloatArray a;
    a.v.assign(v.begin(), v.end());
    return ascsim_torch::keep_alive(std::move(a));
}
inline aclBoolArray* ConvertType(at::ArrayRef<bool> v) {
    aclBoolArray a;
    for (bool b : v) a.v.push_back(b);
    return ascsim_torch::keep_alive(std::move(a));
}
inline aclScalar* ConvertType(const at::Scalar& s) {
    return ascsim_torch::keep_alive(ascsim_torch::acl_scalar(s, ascsim_torch::ge_dtype(s.type())));
}
inline const at::Tensor& ConvertType(const at::Tensor& t) { return t; }   // tensors pass through EXEC_NPU_CMD as they are

#define EXEC_NPU_CMD(aclnn_api, ...) ::ascsim_torch::exec(#aclnn_api, __VA_ARGS__)
#endif  // ASCSIM_PYTORCH_NPU_HELPER_HPP_
