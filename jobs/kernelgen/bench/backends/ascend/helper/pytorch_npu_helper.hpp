// kernelgen's binding helper for the `ascend` backend: EXEC_NPU_CMD(aclnnXxx, args...) for a task's pybind.cpp.
// Written for this project from the public aclnn two-phase calling convention (GetWorkspaceSize, then launch);
// NOT run on hardware in this repository.
//
// The op API is reached ONLY through the library named by KERNELGEN_CUST_OPAPI_LIB (the candidate's own
// libcust_opapi.so, set by the harness). Every resolved symbol is checked with dladdr to come from that very
// file, so a candidate can never be credited for a built-in aclnn kernel.
// Launches go straight to the current NPU stream, so the harness runs cases with TASK_QUEUE_ENABLE=0.
#pragma once
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <torch/extension.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "torch_npu/csrc/core/npu/NPUStream.h"

namespace kg_npu {

inline void* resolve(const std::string& sym) {
    static void* handle = nullptr;
    static std::string lib;
    if (handle == nullptr) {
        const char* p = std::getenv("KERNELGEN_CUST_OPAPI_LIB");
        if (p == nullptr || *p == '\0') throw std::runtime_error("KERNELGEN_CUST_OPAPI_LIB is not set");
        lib = p;
        handle = dlopen(p, RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) throw std::runtime_error("cannot open shared object file " + lib + ": " + dlerror());
    }
    void* fn = dlsym(handle, sym.c_str());
    if (fn == nullptr) throw std::runtime_error("undefined symbol: " + sym + " (GetWorkspaceSize not found in " + lib + ")");
    Dl_info info;
    char got[PATH_MAX], want[PATH_MAX];
    if (dladdr(fn, &info) == 0 || info.dli_fname == nullptr || realpath(info.dli_fname, got) == nullptr ||
        realpath(lib.c_str(), want) == nullptr || std::strcmp(got, want) != 0) {
        throw std::runtime_error(sym + " does not resolve to the candidate's " + lib);
    }
    return fn;
}

inline aclDataType acl_dtype(at::ScalarType t) {
    switch (t) {
        case at::kFloat: return ACL_FLOAT;
        case at::kHalf: return ACL_FLOAT16;
        case at::kBFloat16: return ACL_BF16;
        case at::kDouble: return ACL_DOUBLE;
        case at::kInt: return ACL_INT32;
        case at::kLong: return ACL_INT64;
        case at::kShort: return ACL_INT16;
        case at::kChar: return ACL_INT8;
        case at::kByte: return ACL_UINT8;
        case at::kBool: return ACL_BOOL;
        default: throw std::runtime_error("unsupported tensor dtype for aclnn");
    }
}

inline aclTensor* to_acl(const at::Tensor& t) {
    if (!t.defined()) return nullptr;
    std::vector<int64_t> dims(t.sizes().begin(), t.sizes().end()), strides(t.strides().begin(), t.strides().end());
    int64_t elems = static_cast<int64_t>(t.storage().nbytes() / t.element_size());
    return aclCreateTensor(dims.data(), dims.size(), acl_dtype(t.scalar_type()), strides.data(), t.storage_offset(),
                           ACL_FORMAT_ND, &elems, 1, const_cast<void*>(t.storage().data()));
}
inline aclTensorList* to_acl(at::TensorList l) {
    std::vector<const aclTensor*> v;
    for (const auto& t : l) v.push_back(to_acl(t));
    return aclCreateTensorList(v.data(), v.size());
}
inline aclTensorList* to_acl(const std::vector<at::Tensor>& l) { return to_acl(at::TensorList(l)); }
inline aclIntArray* to_acl(at::IntArrayRef a) { return aclCreateIntArray(a.data(), a.size()); }
inline aclScalar* to_acl(const at::Scalar& s) {
    if (s.isFloatingPoint()) { static thread_local double d; d = s.toDouble(); return aclCreateScalar(&d, ACL_DOUBLE); }
    if (s.isBoolean()) { static thread_local bool b; b = s.toBool(); return aclCreateScalar(&b, ACL_BOOL); }
    static thread_local int64_t i; i = s.toLong(); return aclCreateScalar(&i, ACL_INT64);
}
inline aclTensor* to_acl(const c10::optional<at::Tensor>& t) { return t.has_value() ? to_acl(*t) : nullptr; }
inline aclIntArray* to_acl(const std::vector<int64_t>& a) { return to_acl(at::IntArrayRef(a)); }
inline char* to_acl(const std::string& s) { return const_cast<char*>(s.c_str()); }
inline char* to_acl(const char* s) { return const_cast<char*>(s); }
inline aclScalar* to_acl(aclScalar* s) { return s; }          // made by ConvertTensorToAclScaler
inline aclTensor* to_acl(aclTensor* t) { return t; }
// op attributes: aclnn takes integers as int64_t, floating point as double, bool as bool
inline bool to_acl(bool v) { return v; }
inline double to_acl(float v) { return v; }
inline double to_acl(double v) { return v; }
template <typename I, std::enable_if_t<std::is_integral<I>::value && !std::is_same<I, bool>::value, int> = 0>
inline int64_t to_acl(I v) { return static_cast<int64_t>(v); }

// A 0-d/1-element CPU tensor as an aclScalar of its dtype (the value is copied; the scalar owns its bytes).
inline aclScalar* ConvertTensorToAclScaler(const at::Tensor& t) {
    at::Tensor c = t.detach().to(at::kCPU).contiguous();
    auto* bytes = new uint8_t[c.element_size()];   // lives as long as the process: aclScalar keeps the pointer
    std::memcpy(bytes, c.data_ptr(), c.element_size());
    return aclCreateScalar(bytes, acl_dtype(c.scalar_type()));
}
inline aclScalar* ConvertTensorToAclScalar(const at::Tensor& t) { return ConvertTensorToAclScaler(t); }

template <typename... Args>
void exec(const char* api, Args&&... args) {
    auto converted = std::make_tuple(to_acl(args)...);
    using WsFn = int (*)(decltype(to_acl(std::declval<Args&>()))..., uint64_t*, aclOpExecutor**);
    using RunFn = int (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);
    const std::string name(api), ws_name = name + "GetWorkspaceSize";
    auto ws_fn = reinterpret_cast<WsFn>(resolve(ws_name));
    auto run_fn = reinterpret_cast<RunFn>(resolve(name));
    uint64_t ws_size = 0;
    aclOpExecutor* executor = nullptr;
    int rc = std::apply([&](auto&... c) { return ws_fn(c..., &ws_size, &executor); }, converted);
    if (rc != 0) {
        const char* msg = aclGetRecentErrMsg();
        throw std::runtime_error("call " + ws_name + " failed, error code is " + std::to_string(rc) + "\n" + (msg ? msg : ""));
    }
    at::Tensor workspace;
    if (ws_size > 0) {
        workspace = at::empty({static_cast<int64_t>(ws_size)},
                              at::TensorOptions().dtype(at::kByte).device(c10::DeviceType::PrivateUse1));
    }
    aclrtStream stream = c10_npu::getCurrentNPUStream().stream(false);
    rc = run_fn(ws_size ? workspace.data_ptr() : nullptr, ws_size, executor, stream);
    if (rc != 0) {
        const char* msg = aclGetRecentErrMsg();
        throw std::runtime_error("call " + name + " failed, error code is " + std::to_string(rc) + "\n" + (msg ? msg : ""));
    }
}

}  // namespace kg_npu

// names the task bindings call directly
using kg_npu::ConvertTensorToAclScalar;
using kg_npu::ConvertTensorToAclScaler;

#define EXEC_NPU_CMD(api, ...) ::kg_npu::exec(#api, __VA_ARGS__)
